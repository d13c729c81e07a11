import { z } from "zod";
import { httpUrlSchema, isoTimestampSchema } from "./common.js";
import { agentIdSchema } from "./widget.js";
import { urlPatternMembers } from "./source-documents.js";

export const MAX_TEXT_SOURCE_BYTES = 2 * 1024 * 1024;
export const sourceKinds = ["url", "sitemap", "text", "wordpress", "file"] as const;
export const sourceStatuses = ["pending", "indexed", "failed"] as const;

/** How often a url or sitemap source is re-synced on its own (issue 14 §3); texts and WordPress sites are pushed, never re-synced on a schedule. */
export const sourceSchedules = ["off", "hourly", "daily", "weekly"] as const;
export type SourceSchedule = (typeof sourceSchedules)[number];
export const sourceScheduleSchema = z
  .enum(sourceSchedules, { error: () => "must be one of off, hourly, daily, weekly" })
  .describe("How often the source is re-synced on its own: conditional requests, only changed pages re-embedded. `off` (the default): only when asked.");

const urlSourceBodySchema = z.object({ agent_id: agentIdSchema, kind: z.literal("url"), url: httpUrlSchema, schedule: sourceScheduleSchema.optional() });
const sitemapSourceBodySchema = z.object({
  agent_id: agentIdSchema,
  kind: z.literal("sitemap"),
  url: httpUrlSchema,
  schedule: sourceScheduleSchema.optional(),
  ...urlPatternMembers,
});
const textSourceBodySchema = z.object({
  agent_id: agentIdSchema,
  kind: z.literal("text"),
  title: z.string().trim().max(500).optional(),
  content: z
    .string()
    .refine((value) => value.trim().length > 0, "must not be empty")
    .refine((value) => Buffer.byteLength(value, "utf8") <= MAX_TEXT_SOURCE_BYTES, "must be at most 2 MB"),
  source_url: httpUrlSchema.optional(),
});

/** What a CSV file of question,answer rows becomes: curated answers (the default) or passages to retrieve. */
export const csvModes = ["curated", "chunks"] as const;
export type CsvMode = (typeof csvModes)[number];

/**
 * A file (issue 32), sent as multipart/form-data: these fields, and the file itself in the part
 * named `file` (its filename is what `file` holds once the server has read the part).
 */
export const fileSourceBodySchema = z.object({
  agent_id: agentIdSchema,
  kind: z.literal("file"),
  file: z.string().min(1, "must be a file part of a multipart/form-data body").describe("The file: a part of the multipart/form-data body, with a filename."),
  title: z.string().trim().max(500).optional(),
  source_url: httpUrlSchema.optional().describe("Where citations point; by default the stored file's own URL."),
  csv_mode: z
    .enum(csvModes, { error: () => "must be one of curated, chunks" })
    .optional()
    .describe("For a CSV of question,answer rows: `curated` (default) makes each row a curated answer, `chunks` a passage."),
});
export type FileSourceBody = z.infer<typeof fileSourceBodySchema>;

/** PUT /api/v1/workspace/sources/{id}/file: the new file, as multipart/form-data. */
export const replaceSourceFileBodySchema = z.object({ file: fileSourceBodySchema.shape.file });

/** POST /api/v1/workspace/sources: one body shape per kind; unknown members are ignored. */
export const createSourceBodySchema = z.discriminatedUnion("kind", [urlSourceBodySchema, sitemapSourceBodySchema, textSourceBodySchema, fileSourceBodySchema], {
  error: (issue) => (issue.code === "invalid_union" ? "must be one of url, sitemap, text, file" : undefined),
});
export type CreateSourceBody = z.infer<typeof createSourceBodySchema>;

export const sourceErrorSchema = z.object({ code: z.string(), message: z.string() });

export const sourceSchema = z.object({
  id: z.string(),
  agent_id: z.string(),
  kind: z.enum(sourceKinds),
  status: z.enum(sourceStatuses),
  config: z.record(z.string(), z.unknown()),
  error: sourceErrorSchema.nullable(),
  last_synced_at: isoTimestampSchema.nullable(),
  schedule: z.enum(sourceSchedules).describe("How often the source is re-synced on its own (`off` for texts and WordPress sites)."),
  next_sync_at: isoTimestampSchema.nullable().describe("When the next scheduled re-sync is due; null while `schedule` is `off`."),
  created_at: isoTimestampSchema,
});
export type Source = z.infer<typeof sourceSchema>;

export const sourceResponseSchema = z.object({ data: sourceSchema });
export const sourceListResponseSchema = z.object({ data: z.array(sourceSchema) });
/** An id in a path: one that cannot be an id (other characters, over 64) is a 422, an unknown one a 404. */
export const sourceIdParamsSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "must be a source id") });
