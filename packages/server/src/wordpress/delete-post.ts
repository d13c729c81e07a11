import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findWorkspaceAgent } from "../tenants/agents.js";
import { refreshWordpressProgress } from "./index-wordpress-posts-job.js";
import { deletePost } from "./wordpress-post-repository.js";

/**
 * DELETE /wp/posts/{post_id}: forgets the post and takes it out of the knowledge (its document and
 * chunks), in one transaction. Deleting a post never received, or already deleted, is not an
 * error: a plugin may replay its deletions. Returns the source when one changed.
 */
export async function deleteWordpressPost(services: Services, workspaceId: string, agentId: string, postId: number): Promise<{ sourceId: string } | null> {
  const agent = await findWorkspaceAgent(services.db, workspaceId, agentId);
  if (!agent) throw new AppError("agent_not_found", "No agent with this id in the token's workspace.");
  return services.db.transaction(async (tx) => {
    const deleted = await deletePost(tx, agent.id, postId);
    if (deleted) await refreshWordpressProgress(tx, services.events, deleted.sourceId);
    return deleted;
  });
}
