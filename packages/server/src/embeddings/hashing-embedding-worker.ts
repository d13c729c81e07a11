/**
 * Worker thread for the hashing embedder's large batches. Started by its pool from the
 * compiled `hashing-embedding-worker.js`; never imported at run time.
 */
import { workerData } from "node:worker_threads";
import { z } from "zod";
import { hashTextFeatures } from "./feature-hashing.js";
import { serveEmbeddingWorker } from "./serve-embedding-worker.js";

const workerDataSchema = z.object({ dimensions: z.number().int().positive() });

export type HashingEmbeddingWorkerData = z.infer<typeof workerDataSchema>;

export default serveEmbeddingWorker(async () => {
  const { dimensions } = workerDataSchema.parse(workerData);
  return { dimensions, embed: async (texts) => texts.map((text) => hashTextFeatures(text, dimensions)) };
});
