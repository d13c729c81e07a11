import { operatorsPresenceChannel } from "../realtime/bus-channels.js";
import type { Queryable } from "../db/database.js";
import type { Services } from "../services.js";
import { anyOperatorAway, availableOperatorIds } from "../tenants/operators.js";

/**
 * Whether an operator of the workspace is online right now: connected to its operators' presence
 * channel and not away. A count first: a workspace nobody is connected to costs nothing more, and
 * one where nobody is away (the usual case) one indexed query; only while someone is away is the
 * member list read and matched.
 */
export async function operatorsOnline(services: Services, workspaceId: string): Promise<boolean> {
  if ((await services.realtime.presenceUserCount(operatorsPresenceChannel(workspaceId))) === 0) return false;
  if (!(await anyOperatorAway(services.db, workspaceId))) return true;
  return (await onlineOperatorIds(services, workspaceId)).length > 0;
}

/**
 * The ids of the workspace's operators online right now (the console joins the presence channel
 * while open), away ones left out. Inside a transaction pass it as `db`: PGlite's one connection
 * would wait for that transaction to end before answering another statement.
 */
export async function onlineOperatorIds(services: Services, workspaceId: string, db: Queryable = services.db): Promise<string[]> {
  const connected = (await services.realtime.presenceMembers(operatorsPresenceChannel(workspaceId))).map((member) => member.userId);
  return availableOperatorIds(db, workspaceId, connected);
}
