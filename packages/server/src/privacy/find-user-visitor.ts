import type { Queryable } from "../db/database.js";
import { findUserVisitorId } from "../conversations/visitor-data.js";
import { findWorkspaceAgent } from "../tenants/agents.js";

/**
 * A data subject named by the site's own id for them (a verified `user_id`): the agent's visitor of
 * that id, when the agent is the workspace's. Null otherwise (unknown agent, another workspace's,
 * or no such user): erasure and export by user id then answer as for an unknown visitor.
 */
export async function findUserVisitor(db: Queryable, scope: { workspaceId: string; agentId: string; userId: string }): Promise<string | null> {
  if (!(await findWorkspaceAgent(db, scope.workspaceId, scope.agentId))) return null;
  return findUserVisitorId(db, scope.agentId, scope.userId);
}
