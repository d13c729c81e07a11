import { z } from "zod";
import { isoTimestampSchema } from "./common.js";

/**
 * A workspace's embeddings provider (issue 31): the instance's default, the offline hashing
 * embedder, the local model (when its files are on the instance) or an OpenAI-compatible server.
 * Changing it re-embeds the workspace's knowledge in the background; answers keep using the old
 * vectors until the new ones are complete.
 */
export const workspaceEmbeddingsProviders = ["default", "hashing", "local", "openai-compatible"] as const;
export type WorkspaceEmbeddingsProvider = (typeof workspaceEmbeddingsProviders)[number];

export const changeWorkspaceEmbeddingsBodySchema = z
  .object({
    provider: z.enum(workspaceEmbeddingsProviders).describe("`default`: the instance's (FRONTDESK_EMBEDDINGS_*); `hashing`: offline; `local`: the local model; `openai-compatible`: a server of yours."),
    base_url: z.string().max(2000).optional().describe("`openai-compatible`: the server, with or without `/v1` (http or https; loopback and private addresses only with FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS=true)."),
    model: z.string().min(1).max(200).optional().describe("`openai-compatible`: the embedding model's name."),
    dimensions: z.number().int().min(1).max(16_000).optional().describe("`openai-compatible`: the vectors' size; required for models other than OpenAI's text-embedding-3-small/large and ada-002."),
    api_key: z.string().max(1000).optional().describe("`openai-compatible`: sent as a bearer token; stored encrypted and never returned. Omitted: the current key is kept when the base URL is the same."),
  })
  .strict();
export type ChangeWorkspaceEmbeddingsBody = z.infer<typeof changeWorkspaceEmbeddingsBodySchema>;

export const workspaceEmbeddingsSettingSchema = z.object({
  provider: z.enum(workspaceEmbeddingsProviders),
  base_url: z.string().nullable(),
  model: z.string().nullable(),
  dimensions: z.number().int().nullable(),
  api_key_set: z.boolean().describe("Whether a key is stored (it is never returned)."),
  embedder: z.string().describe("The embedder's id, e.g. `hashing:v1:384` or `openai:text-embedding-3-small:1536`."),
});

export const workspaceEmbeddingsSchema = z.object({
  active: workspaceEmbeddingsSettingSchema.extend({
    since: isoTimestampSchema.nullable().describe("When the workspace switched to it (null: the instance's default from the start)."),
  }).describe("What answers and new documents use now."),
  reembedding: workspaceEmbeddingsSettingSchema
    .extend({
      state: z.enum(["running", "failed"]).describe("`running`: in the background; `failed`: the provider failed (answers keep the active vectors); retry or choose again."),
      done: z.number().int().describe("Chunks embedded so far."),
      total: z.number().int().describe("Chunks to embed (grows when documents are added meanwhile)."),
      error: z.object({ code: z.string(), message: z.string() }).nullable().describe("Why it failed, the provider's own message included."),
      started_at: isoTimestampSchema,
      updated_at: isoTimestampSchema,
    })
    .nullable()
    .describe("The choice being built beside the active one, if any: it becomes active once every chunk has its new vector."),
});
export type WorkspaceEmbeddings = z.infer<typeof workspaceEmbeddingsSchema>;

export const workspaceEmbeddingsResponseSchema = z.object({ data: workspaceEmbeddingsSchema });
export type WorkspaceEmbeddingsResponse = z.infer<typeof workspaceEmbeddingsResponseSchema>;
