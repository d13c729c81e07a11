import path from "node:path";
import { localModelFileList } from "./local-model-files.js";
import type { LocalModelUnavailableError } from "./local-model-unavailable-error.js";

export interface LocalModelWarningInput {
  modelId: string;
  /** FRONTDESK_EMBEDDINGS_MODEL_DIR when set. */
  modelDir?: string;
  /** `<data dir>/models`. */
  cacheDir: string;
  error: LocalModelUnavailableError;
  /** The embedder standing in, e.g. `hashing:v1:384`. */
  fallbackId: string;
}

export interface LocalModelWarning {
  /** One paragraph for the log: what failed, what it costs, how to fix it, how to silence it. */
  message: string;
  /** Where the model's files belong. */
  directory: string;
  files: string[];
}

const SILENCE = "FRONTDESK_EMBEDDINGS_PROVIDER=hashing silences this warning.";

/**
 * The one warning the service logs when the local embedding model cannot be had: no stack trace,
 * each fact said once, and the files to place and where, so an offline operator can act on it.
 */
export function localModelWarning(input: LocalModelWarningInput): LocalModelWarning {
  const directory = path.join(path.resolve(input.modelDir ?? input.cacheDir), ...input.modelId.split("/"));
  const files = localModelFileList("fp32");
  const [weights] = files.splice(-1);
  const fileList = `${files.join(", ")} and ${weights ?? ""} (or onnx/model_quantized.onnx)`;
  const placement =
    `Put its files (${fileList}, as in the model's Hugging Face repository) in ${directory}/` +
    (input.modelDir === undefined ? " (or in <dir>/" + input.modelId + "/ with FRONTDESK_EMBEDDINGS_MODEL_DIR=<dir>)" : "") +
    ", restart, then run `bin/frontdesk reindex`.";
  const cost = `Until then the service embeds with ${input.fallbackId} (keyword hashing) and answers are less relevant.`;
  const model = `the embedding model ${input.modelId}`;
  const headline = ((): string => {
    switch (input.error.problem) {
      case "download_failed":
        return `EMBEDDINGS DEGRADED: ${model} could not be fetched (${input.error.detail}).`;
      case "not_found":
        return `EMBEDDINGS DEGRADED: ${model} is not on disk and downloading it is off (FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD=false).`;
      case "load_failed":
        return `EMBEDDINGS DEGRADED: ${model} is on disk but does not load (${input.error.detail}).`;
      case "runtime_missing":
        return `EMBEDDINGS DEGRADED: ${model} cannot run: ${input.error.message}.`;
    }
  })();
  const remedy = input.error.problem === "runtime_missing" ? "" : ` ${placement}`;
  return { message: `${headline} ${cost}${remedy} ${SILENCE}`, directory, files: [...files, weights ?? ""] };
}
