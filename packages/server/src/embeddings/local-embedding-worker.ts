/**
 * Worker thread hosting a transformers.js feature-extraction model. Started by the
 * LocalEmbedder's pool from the compiled `local-embedding-worker.js`; never imported at run time.
 */
import { workerData } from "node:worker_threads";
import { env, LogLevel, pipeline } from "@huggingface/transformers";
import { z } from "zod";
import { serveEmbeddingWorker, type WorkerBatchEmbedder } from "./serve-embedding-worker.js";

const workerDataSchema = z.object({
  modelId: z.string().min(1),
  /** Where hand-placed models live (`<localModelPath>/<org>/<name>/…`). */
  localModelPath: z.string().min(1),
  /** Where downloaded models are cached, with the same layout. */
  cacheDir: z.string().min(1),
  allowRemoteModels: z.boolean(),
  /** A Hub mirror; transformers.js' default is https://huggingface.co/. */
  remoteHost: z.url().optional(),
  dtype: z.enum(["fp32", "q8"]),
  /** ONNX Runtime threads per worker; its default is one per core. */
  intraOpThreads: z.number().int().positive().optional(),
});

export type LocalEmbeddingWorkerData = z.infer<typeof workerDataSchema>;

const DIMENSION_PROBE = "dimension probe";

async function loadModel(): Promise<WorkerBatchEmbedder> {
  const options = workerDataSchema.parse(workerData);
  env.allowLocalModels = true;
  env.localModelPath = options.localModelPath;
  env.useFSCache = true;
  env.cacheDir = options.cacheDir;
  env.allowRemoteModels = options.allowRemoteModels;
  if (options.remoteHost !== undefined) env.remoteHost = options.remoteHost;
  env.logLevel = LogLevel.ERROR;

  const extractor = await pipeline("feature-extraction", options.modelId, {
    dtype: options.dtype,
    device: "cpu",
    local_files_only: !options.allowRemoteModels,
    ...(options.intraOpThreads === undefined ? {} : { session_options: { intraOpNumThreads: options.intraOpThreads } }),
  });

  async function embed(texts: string[]): Promise<Float32Array[]> {
    const output = await extractor(texts, { pooling: "mean", normalize: true });
    const [rows, dimensions] = output.dims;
    const data = output.data;
    if (!(data instanceof Float32Array) || rows !== texts.length || dimensions === undefined) {
      throw new Error(`the model returned ${output.type} output of shape [${output.dims.join(", ")}] for ${texts.length} texts`);
    }
    return texts.map((_, row) => data.slice(row * dimensions, (row + 1) * dimensions));
  }

  const [probe] = await embed([DIMENSION_PROBE]);
  return { dimensions: probe?.length ?? 0, embed, dispose: () => extractor.dispose() };
}

serveEmbeddingWorker(loadModel);
