import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { authenticateApiToken } from "../tenants/authenticate-api-token.js";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import type { ApiToken } from "../tenants/api-tokens.js";
import { deleteWordpressPost } from "./delete-post.js";
import { pushPosts } from "./push-posts.js";
import { readSyncStatus } from "./read-sync-status.js";
import { deletePostRouteSchema, PUSH_POSTS_BODY_LIMIT_BYTES, pushPostsRouteSchema, syncStatusRouteSchema } from "./schemas.js";

/** WordPress bulk sync, mounted under /api/v1/wp: a workspace API token with `wp:sync`, 60 requests a minute per token. */
export const wordpressRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;
  // The push is committed: raised on the store, the Knowledge screens read the source again at once.
  const sourceChanged = (sourceId: string) => services.events.raise(services.db, { type: "source.changed", sourceId });

  app.addHook("preValidation", async (request: FastifyRequest, reply: FastifyReply) => {
    const token = await authenticateApiToken(services.db, request.headers.authorization, "wp:sync");
    request.apiToken = token;
    await enforceRateLimit(services.limiter, reply, ["wordpress", token.id]);
  });
  const workspaceOf = (request: FastifyRequest): string => {
    const token: ApiToken | undefined = request.apiToken;
    if (!token) throw new Error("API token guard did not run");
    return token.workspaceId;
  };

  app.post("/posts", { schema: pushPostsRouteSchema, bodyLimit: PUSH_POSTS_BODY_LIMIT_BYTES }, async (request) => {
    const { response, changed } = await pushPosts(services, workspaceOf(request), request.body);
    if (changed) await sourceChanged(response.source_id);
    return { data: response };
  });

  app.delete("/posts/:post_id", { schema: deletePostRouteSchema }, async (request, reply) => {
    const deleted = await deleteWordpressPost(services, workspaceOf(request), request.query.agent_id, request.params.post_id);
    if (deleted) await sourceChanged(deleted.sourceId);
    return reply.code(204).send(null);
  });

  app.get("/status", { schema: syncStatusRouteSchema }, async (request) => ({
    data: await readSyncStatus(services, workspaceOf(request), request.query.agent_id),
  }));
};
