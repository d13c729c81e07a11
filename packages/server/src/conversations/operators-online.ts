import { operatorsPresenceChannel } from "../realtime/bus-channels.js";
import type { Services } from "../services.js";

/** Whether any operator of the workspace is connected to its operators' presence channel right now: a count, no member list read. */
export async function operatorsOnline(services: Services, workspaceId: string): Promise<boolean> {
  return (await services.realtime.presenceUserCount(operatorsPresenceChannel(workspaceId))) > 0;
}

/** The ids of the workspace's operators connected to its operators' presence channel right now (the console joins it while open). */
export async function onlineOperatorIds(services: Services, workspaceId: string): Promise<string[]> {
  return (await services.realtime.presenceMembers(operatorsPresenceChannel(workspaceId))).map((member) => member.userId);
}
