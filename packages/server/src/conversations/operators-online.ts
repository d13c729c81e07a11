import { operatorsPresenceChannel } from "../realtime/bus-channels.js";
import type { Services } from "../services.js";

/** Whether any operator of the workspace is connected to its operators' presence channel right now. */
export async function operatorsOnline(services: Services, workspaceId: string): Promise<boolean> {
  return (await services.realtime.presenceMembers(operatorsPresenceChannel(workspaceId))).length > 0;
}
