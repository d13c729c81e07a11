import {
  wordpressAgentQuerySchema,
  wordpressPostParamsSchema,
  wordpressPostSchema,
  wordpressPostsBodySchema,
  wordpressPostsResponseSchema,
  wordpressSyncStatusResponseSchema,
} from "@frontdesk/contracts";
import { componentSchemas } from "../openapi/component-schemas.js";
import { apiTokenSecurity, bodyErrors, errorResponse, errors, jsonResponse, noContentResponse } from "../openapi/route-responses.js";

const tags = ["wordpress"];
/** A batch may carry up to 100 posts of up to 1 MB each; the body is held to 10 MB (the other routes: 3 MB). */
export const PUSH_POSTS_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

componentSchemas.add(wordpressPostSchema, {
  id: "WordPressPost",
  description: "One post as a WordPress plugin pushes it; upserted by (agent, `post_id`).",
});
componentSchemas.add(wordpressPostsBodySchema, { id: "WordPressPostsRequest" });

/** The errors every /wp route can give: the API token, its ability, its budget, the agent. */
const tokenErrors = {
  401: errors.apiToken,
  403: errorResponse("`missing_ability`: the token lacks `wp:sync`."),
  404: errorResponse("`agent_not_found`: no agent with this id in the token's workspace."),
  429: errors.rateLimited,
  500: errors.internal,
} as const;

export const pushPostsRouteSchema = {
  tags,
  operationId: "pushWordPressPosts",
  summary: "Push a batch of WordPress posts",
  description:
    "Upserts 1 to 100 posts by (agent, `post_id`), each checked on its own. A published post (`status: publish`) that is new " +
    "or whose content hash (title, URL and HTML) changed is queued for indexing (a job enqueued in the same transaction; " +
    "nothing is indexed during the request); one with the stored hash is `unchanged` and not re-indexed; any other status " +
    "takes the post out of the knowledge (`removed`). A bad post is `rejected` with `validation_failed` and `fields` keyed " +
    "like `posts.3.url`, and the others are kept: the answer is 200 with one result per post. When no post could be kept " +
    "the answer is 422 with every post's `fields`. The first push creates the agent's `wordpress` source.",
  security: apiTokenSecurity,
  body: wordpressPostsBodySchema,
  response: {
    200: jsonResponse("The batch was processed: one result per post, in order.", wordpressPostsResponseSchema),
    ...bodyErrors,
    413: errorResponse("`payload_too_large`: the body is over 10 MB; send fewer posts per request."),
    422: errorResponse(
      "`validation_failed`: the body is not `{agent_id, posts}` with 1 to 100 posts (`fields.posts`), or no post of it could be kept " +
        "(`fields` keyed like `posts.3.url`).",
    ),
    ...tokenErrors,
    503: errorResponse("`service_unavailable`: another push changed the same posts at the same moment; send the batch again."),
  },
};

export const deletePostRouteSchema = {
  tags,
  operationId: "deleteWordPressPost",
  summary: "Delete a WordPress post",
  description:
    "Forgets the post and takes it out of the agent's knowledge at once (its document and chunks). A post never pushed, " +
    "or already deleted, answers 204 too, so a plugin may replay deletions.",
  security: apiTokenSecurity,
  params: wordpressPostParamsSchema,
  querystring: wordpressAgentQuerySchema,
  response: {
    204: noContentResponse("Deleted (or there was nothing to delete)."),
    ...tokenErrors,
    422: errorResponse("`validation_failed`: `post_id` is not a WordPress post ID, or `agent_id` is missing (`fields` says which)."),
  },
};

export const syncStatusRouteSchema = {
  tags,
  operationId: "getWordPressSyncStatus",
  summary: "Read an agent's WordPress sync status",
  description:
    "The agent's posts by state (pending, indexed, failed, unpublished), whether indexing is under way, the last push and the " +
    "last time indexing settled, and up to 50 posts whose indexing failed with why.",
  security: apiTokenSecurity,
  querystring: wordpressAgentQuerySchema,
  response: {
    200: jsonResponse("The sync status.", wordpressSyncStatusResponseSchema),
    ...tokenErrors,
    422: errorResponse("`validation_failed`: `agent_id` is missing or malformed."),
  },
};
