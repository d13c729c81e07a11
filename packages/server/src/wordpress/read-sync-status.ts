import { WORDPRESS_FAILED_POSTS_LIMIT, type WordpressSyncStatus } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findWorkspaceAgent } from "../tenants/agents.js";
import { findWordpressSource } from "../sources/sources.js";
import { countPosts, listFailedPosts } from "./wordpress-post-repository.js";

/** GET /wp/status: the agent's posts by state, the last push and the last settled indexing, and the posts that failed. */
export async function readSyncStatus(services: Services, workspaceId: string, agentId: string): Promise<WordpressSyncStatus> {
  const agent = await findWorkspaceAgent(services.db, workspaceId, agentId);
  if (!agent) throw new AppError("agent_not_found", "No agent with this id in the token's workspace.");
  const [source, posts, failed] = await Promise.all([
    findWordpressSource(services.db, agent.id),
    countPosts(services.db, agent.id),
    listFailedPosts(services.db, agent.id, WORDPRESS_FAILED_POSTS_LIMIT),
  ]);
  return {
    agent_id: agent.id,
    source_id: source?.id ?? null,
    source_status: source?.status ?? null,
    syncing: posts.pending > 0,
    posts,
    last_push_at: source?.syncRequestedAt ?? null,
    last_indexed_at: source?.lastSyncedAt ?? null,
    failed_posts: failed.map((post) => ({ post_id: post.postId, url: post.url, error: post.error })),
  };
}
