import { z } from "zod";

/** The part of an OpenAI-compatible `POST /v1/embeddings` answer we rely on. */
export const openAiEmbeddingsResponseSchema = z.object({
  data: z.array(
    z.object({
      index: z.number().int().nonnegative(),
      embedding: z.array(z.number()),
    }),
  ),
  model: z.string().optional(),
});

/** An OpenAI-style error body: `{ "error": { "message": "…" } }`. */
export const openAiErrorResponseSchema = z.object({
  error: z.union([z.object({ message: z.string() }), z.string()]),
});
