import { z } from "zod";
import { isoTimestampSchema } from "./common.js";

/**
 * What was indexed, visible (issue 32 §3): a source's documents (its pages, posts or text) with
 * their status, and one document's extracted text and chunks; a sitemap's URL patterns; the switch
 * that leaves a page out of the knowledge.
 */

/** A source's error shape (sources.ts imports this file for the URL patterns, so it is not imported back). */
const sourceErrorSchema = z.object({ code: z.string(), message: z.string() });

export const DOCUMENT_PAGE_DEFAULT = 50;
export const DOCUMENT_PAGE_MAX = 200;
export const URL_PATTERNS_MAX = 50;
export const URL_PATTERN_MAX_LENGTH = 200;

export const documentStatuses = ["pending", "indexed", "failed", "excluded"] as const;

/** A glob-like pattern of a page's path and query: `/blog/*`; `*` is any run of characters. */
export const crawlPatternSchema = z
  .string()
  .max(URL_PATTERN_MAX_LENGTH, `must be at most ${URL_PATTERN_MAX_LENGTH} characters`)
  .regex(/^\//, "must start with / (a pattern of the page's path, such as /blog/*)")
  .regex(/^[^\s\u0000-\u001f\u007f]*$/, "must not hold spaces or control characters")
  .refine((value) => !value.includes("**"), "must not hold ** (one * already matches any run of characters, / included)");

export const crawlPatternListSchema = z
  .array(crawlPatternSchema)
  .max(URL_PATTERNS_MAX, `must hold at most ${URL_PATTERNS_MAX} patterns`)
  .refine((patterns) => new Set(patterns).size === patterns.length, "must not repeat a pattern");

/** The members of a sitemap source that say which of its pages are crawled. */
export const urlPatternMembers = {
  include_patterns: crawlPatternListSchema
    .optional()
    .describe("Only pages whose path (and query) matches one of these are crawled, e.g. `/help/*`; all pages when empty or absent."),
  exclude_patterns: crawlPatternListSchema.optional().describe("Pages whose path (and query) matches one of these are never crawled, e.g. `/careers/*`."),
};

const documentIdSchema = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, "must be a document id")
  .transform(Number);

export const sourceDocumentParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be a source id"),
  document_id: documentIdSchema,
});

export const sourceDocumentListQuerySchema = z.object({
  cursor: z.string().min(1).max(512).optional().describe("`next_cursor` of the previous page."),
  limit: z
    .string()
    .regex(/^\d{1,4}$/, `must be an integer from 1 to ${DOCUMENT_PAGE_MAX}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `must be an integer from 1 to ${DOCUMENT_PAGE_MAX}`).max(DOCUMENT_PAGE_MAX, `must be an integer from 1 to ${DOCUMENT_PAGE_MAX}`))
    .optional()
    .describe(`1–${DOCUMENT_PAGE_MAX}, ${DOCUMENT_PAGE_DEFAULT} by default.`),
});

export const sourceDocumentSchema = z.object({
  id: z.number().int(),
  url: z.string().describe("The page (or the URL a text or post is cited by)."),
  title: z.string().nullable().describe("The title its last indexing read; null before the first."),
  status: z
    .enum(documentStatuses)
    .describe("`pending` (waiting to be read), `indexed`, `failed` (never indexed: see `error`), or `excluded` (left out by its owner: no chunks, skipped by re-syncs)."),
  bytes: z.number().int().nullable().describe("Size of the content its last indexing read (the page's body, the text, the post's HTML)."),
  last_fetched_at: isoTimestampSchema.nullable().describe("When it was last read successfully (indexed, or found unchanged)."),
  chunk_count: z.number().int().describe("Passages it holds in the index."),
  error: sourceErrorSchema.nullable().describe("Why its last attempt failed; an `indexed` page with an error keeps answering with its earlier version."),
});
export type SourceDocument = z.infer<typeof sourceDocumentSchema>;

export const documentChunkSchema = z.object({
  index: z.number().int().describe("0-based, in the document's order."),
  heading: z.string().nullable().describe("The heading the passage falls under."),
  content: z.string(),
  token_estimate: z.number().int(),
});

export const sourceDocumentDetailSchema = sourceDocumentSchema.extend({
  text: z.string().nullable().describe("The text its last indexing extracted (headings as their own paragraphs); null before the first."),
  chunks: z.array(documentChunkSchema).describe("The passages answers retrieve, in order (none when excluded or not indexed yet)."),
});
export type SourceDocumentDetail = z.infer<typeof sourceDocumentDetailSchema>;

export const sourceDocumentListResponseSchema = z.object({
  data: z.array(sourceDocumentSchema),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
});
export const sourceDocumentResponseSchema = z.object({ data: sourceDocumentDetailSchema });

/** PATCH …/documents/{document_id} on the console: leave a page out of the knowledge, or take it back. */
export const updateSourceDocumentBodySchema = z.object({
  excluded: z.boolean({ error: "must be true or false" }).describe("true: its chunks leave the index at once and re-syncs skip it; false: it is indexed again."),
});
export type UpdateSourceDocumentBody = z.infer<typeof updateSourceDocumentBodySchema>;
