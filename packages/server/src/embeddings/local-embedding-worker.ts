/**
 * Worker thread hosting a local sentence-embedding model (ONNX Runtime and the model's tokenizer).
 * Started by the LocalEmbedder's pool from the compiled `local-embedding-worker.js`; never imported
 * at run time, so the main thread never loads ONNX Runtime.
 */
import { workerData } from "node:worker_threads";
import { z } from "zod";
import { loadSentenceEmbeddingModel } from "./sentence-embedding-model.js";
import { serveEmbeddingWorker, type WorkerBatchEmbedder } from "./serve-embedding-worker.js";

const workerDataSchema = z.object({
  /** The model's directory, laid out like its Hugging Face repository. */
  directory: z.string().min(1),
  /** The ONNX weights, relative to `directory`, e.g. `onnx/model.onnx`. */
  weights: z.string().min(1),
  /** ONNX Runtime threads per worker; its default is one per core. */
  intraOpThreads: z.number().int().positive().optional(),
});

export type LocalEmbeddingWorkerData = z.infer<typeof workerDataSchema>;

async function loadModel(): Promise<WorkerBatchEmbedder> {
  // The model lives as long as its thread: the pool terminates idle threads, which frees it.
  return loadSentenceEmbeddingModel(workerDataSchema.parse(workerData));
}

export default serveEmbeddingWorker(loadModel);
