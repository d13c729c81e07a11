import { z } from "zod";
import { httpUrlSchema, isoTimestampSchema } from "./common.js";
import { errorBodySchema } from "./errors.js";
import { sourceErrorSchema, sourceStatuses } from "./sources.js";
import { agentIdSchema } from "./widget.js";

/**
 * WordPress bulk sync (/api/v1/wp/*): a plugin pushes a site's posts in batches and then their
 * changes; each published post becomes a document of the agent's one `wordpress` source.
 */

export const WORDPRESS_BATCH_MAX_POSTS = 100;
export const WORDPRESS_TITLE_MAX_LENGTH = 500;
export const WORDPRESS_CONTENT_MAX_BYTES = 1024 * 1024;
/** The post statuses that put a post in the knowledge: WordPress's `publish` (and `published`, read the same). */
export const WORDPRESS_PUBLISHED_STATUSES = ["publish", "published"] as const;
export const WORDPRESS_FAILED_POSTS_LIMIT = 50;

const wordpressNameSchema = z
  .string()
  .regex(/^[a-z0-9_-]{1,20}$/, "must be 1 to 20 lowercase letters, digits, '_' or '-' (as WordPress names them)");

export const wordpressPostIdSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** One post as the plugin sends it. Unknown members are ignored. */
export const wordpressPostSchema = z.object({
  post_id: wordpressPostIdSchema.describe("WordPress's post ID: with the agent, the key the post is upserted by."),
  url: httpUrlSchema.describe("The post's permalink (absolute http(s), at most 2,048 characters): what answers cite. Never fetched."),
  title: z.string().max(WORDPRESS_TITLE_MAX_LENGTH, `must be at most ${WORDPRESS_TITLE_MAX_LENGTH} characters`).describe("The post's title (may be empty)."),
  content: z
    .string()
    .refine((value) => Buffer.byteLength(value, "utf8") <= WORDPRESS_CONTENT_MAX_BYTES, "must be at most 1 MB")
    .describe("The rendered HTML of the post (`the_content`), at most 1 MB; read like a crawled page's HTML."),
  modified_at: z.iso
    .datetime({ offset: true, message: "must be an ISO 8601 date and time with a UTC offset" })
    .refine((value) => {
      const time = Date.parse(value);
      return Number.isFinite(time) && time >= Date.UTC(1970, 0, 1) && time < Date.UTC(10000, 0, 1);
    }, "must be a time between 1970 and 9999")
    .describe("`post_modified_gmt` as ISO 8601 with an offset (`get_post_modified_time('c', true)`)."),
  status: wordpressNameSchema.describe("`post_status`: `publish` puts the post in the knowledge; any other (`draft`, `private`, `trash`, …) takes it out."),
  type: wordpressNameSchema.describe("`post_type` (`post`, `page`, a custom type)."),
});
export type WordpressPost = z.infer<typeof wordpressPostSchema>;

/**
 * POST /api/v1/wp/posts. Each post is checked on its own (a bad one is answered in `results`,
 * the others are kept), so the array takes any value here: the union's `unknown` branch keeps a
 * bad item from failing the whole request, and the OpenAPI document shows the post's schema
 * (fastify-type-provider-zod drops the empty `{}` branch of a union).
 */
export const wordpressPostsBodySchema = z.object({
  agent_id: agentIdSchema,
  posts: z
    .array(z.union([wordpressPostSchema, z.unknown()]))
    .min(1, "must hold at least one post")
    .max(WORDPRESS_BATCH_MAX_POSTS, `must hold at most ${WORDPRESS_BATCH_MAX_POSTS} posts: send the rest in another request`)
    .describe(`1 to ${WORDPRESS_BATCH_MAX_POSTS} posts. Each is checked on its own: a bad one is rejected in \`results\`, the others are kept.`),
});
export type WordpressPostsBody = z.infer<typeof wordpressPostsBodySchema>;

export const wordpressPostOutcomes = ["queued", "unchanged", "removed", "rejected"] as const;
export type WordpressPostOutcome = (typeof wordpressPostOutcomes)[number];

export const wordpressPostResultSchema = z.object({
  index: z.number().int().describe("The post's position in `posts` (0-based)."),
  post_id: z.number().int().nullable().describe("The post's ID, when it was readable."),
  result: z
    .enum(wordpressPostOutcomes)
    .describe(
      "`queued`: new or changed, (re)indexed in the background. `unchanged`: same content hash as stored, nothing re-indexed. " +
        "`removed`: not published, so not (or no longer) in the knowledge. `rejected`: invalid, nothing stored (see `error`).",
    ),
  error: errorBodySchema.shape.error.optional().describe("For `rejected`: `validation_failed`, with `fields` keyed like `posts.3.url`."),
  warning: z.string().optional().describe("Accepted, but probably a mistake (the URL's origin is not among the agent's allowed origins)."),
});
export type WordpressPostResult = z.infer<typeof wordpressPostResultSchema>;

export const wordpressPostsResponseSchema = z.object({
  data: z.object({
    agent_id: z.string(),
    source_id: z.string().describe("The agent's `wordpress` source (created by its first push)."),
    received: z.number().int(),
    queued: z.number().int(),
    unchanged: z.number().int(),
    removed: z.number().int(),
    rejected: z.number().int(),
    results: z.array(wordpressPostResultSchema).describe("One per post, in the order sent."),
  }),
});
export type WordpressPostsResponse = z.infer<typeof wordpressPostsResponseSchema>;

export const wordpressAgentQuerySchema = z.object({ agent_id: agentIdSchema });

/** A post id in a path: digits only (a WordPress ID). */
export const wordpressPostParamsSchema = z.object({
  post_id: z
    .string()
    .regex(/^[1-9][0-9]{0,15}$/, "must be a WordPress post ID")
    .transform(Number)
    .pipe(wordpressPostIdSchema),
});

export const wordpressSyncStatusSchema = z.object({
  agent_id: z.string(),
  source_id: z.string().nullable().describe("The agent's `wordpress` source; null before the first push."),
  source_status: z.enum(sourceStatuses).nullable(),
  syncing: z.boolean().describe("Some posts are still waiting to be indexed."),
  posts: z
    .object({
      total: z.number().int().describe("Every post received and not deleted, published or not."),
      pending: z.number().int().describe("Published, waiting to be (re)indexed."),
      indexed: z.number().int().describe("Published and answering, its last indexing without an error."),
      failed: z.number().int().describe("Published, its last indexing failed (one indexed before keeps answering with its earlier text)."),
      unpublished: z.number().int().describe("Received with a status other than `publish`: not in the knowledge."),
    })
    .describe("Posts by state."),
  last_push_at: isoTimestampSchema.nullable().describe("The last push that queued or removed something."),
  last_indexed_at: isoTimestampSchema.nullable().describe("When indexing last settled with every post done."),
  failed_posts: z
    .array(z.object({ post_id: z.number().int(), url: z.string(), error: sourceErrorSchema }))
    .describe(`Up to ${WORDPRESS_FAILED_POSTS_LIMIT} posts whose last indexing failed, with why.`),
});
export type WordpressSyncStatus = z.infer<typeof wordpressSyncStatusSchema>;
export const wordpressSyncStatusResponseSchema = z.object({ data: wordpressSyncStatusSchema });
