import type { Embedder, EmbeddingBatchListener, EmbeddingProvider } from "./embedder.js";
import { DegradedEmbedder } from "./degraded-embedder.js";
import { EmbeddingError } from "./embedding-error.js";
import { DEFAULT_HASHING_DIMENSIONS, HashingEmbedder } from "./hashing-embedder.js";
import { DEFAULT_LOCAL_MODEL, LocalEmbedder } from "./local-embedder.js";
import { LocalModelUnavailableError } from "./local-model-unavailable-error.js";
import { localModelWarning } from "./local-model-warning.js";
import { OpenAiCompatibleEmbedder } from "./openai-compatible-embedder.js";

/** The embedding part of the service configuration (FRONTDESK_EMBEDDINGS_*). */
export interface EmbedderConfig {
  /** Default in the service config: `local`. */
  provider: EmbeddingProvider;
  /** `local` only: a directory of hand-placed models, `<modelDir>/<org>/<name>/…`. */
  modelDir?: string;
  /** `local` only: where downloaded models are cached, e.g. `<dataDir>/models`. */
  cacheDir: string;
  /** `local` only: whether the Hugging Face Hub may be asked for a missing model. */
  allowRemoteModels: boolean;
  /** `local` only: a Hugging Face Hub mirror, default https://huggingface.co/. */
  remoteHost?: string;
  /** `openai` only: the server, with or without `/v1`. */
  baseUrl?: string;
  /** `openai` only. */
  apiKey?: string;
  /** `local`: a Hugging Face model id (default Xenova/all-MiniLM-L6-v2); `openai`: the model name (required). */
  model?: string;
  /** `openai`: sent to the server; `hashing` (and the hashing fallback): the vector size. Default 384. */
  dimensions?: number;
  /** Texts per batch; each provider has its own default. */
  batchSize?: number;
  /** Worker threads for `local` and `hashing`. Default 1. */
  workerCount?: number;
  /** `local`: how long the model stays loaded after its last batch (questions embed with it too). */
  idleTimeoutMs?: number;
}

/** The part of a pino logger the factory uses. */
export interface EmbeddingLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface CreateEmbedderOptions {
  /** Override the compiled worker scripts (tests run from source and point at `dist/`). */
  localWorkerUrl?: URL;
  hashingWorkerUrl?: URL;
  /** The packages `local` checks before loading; tests name an absent one. */
  localRuntimePackages?: readonly string[];
  onBatch?: EmbeddingBatchListener;
}

function required(value: string | undefined, name: string): string {
  if (value === undefined || value === "") {
    throw new EmbeddingError("invalid_config", `The openai embedding provider needs ${name}`);
  }
  return value;
}

function createHashing(config: EmbedderConfig, options: CreateEmbedderOptions): HashingEmbedder {
  return new HashingEmbedder({
    dimensions: config.dimensions ?? DEFAULT_HASHING_DIMENSIONS,
    workerCount: config.workerCount,
    workerUrl: options.hashingWorkerUrl,
    onBatch: options.onBatch,
  });
}

async function createLocal(config: EmbedderConfig, logger: EmbeddingLogger, options: CreateEmbedderOptions): Promise<Embedder> {
  const modelId = config.model ?? DEFAULT_LOCAL_MODEL;
  try {
    const embedder = await LocalEmbedder.open({
      modelId,
      cacheDir: config.cacheDir,
      allowRemoteModels: config.allowRemoteModels,
      remoteHost: config.remoteHost,
      modelDir: config.modelDir,
      batchSize: config.batchSize,
      workerCount: config.workerCount,
      ...(config.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: config.idleTimeoutMs }),
      workerUrl: options.localWorkerUrl,
      runtimePackages: options.localRuntimePackages,
      onBatch: options.onBatch,
    });
    logger.info({ embedder: embedder.id, dimensions: embedder.dimensions }, "Local embedding model loaded");
    return embedder;
  } catch (error) {
    if (!(error instanceof LocalModelUnavailableError)) throw error;
    const fallback = createHashing(config, options);
    const warning = localModelWarning({ modelId, modelDir: config.modelDir, cacheDir: config.cacheDir, error, fallbackId: fallback.id });
    logger.warn({ model: modelId, problem: error.problem, directory: warning.directory, files: warning.files, fallback: fallback.id }, warning.message);
    const reason = `${error.message}; embedding with ${fallback.id} instead`;
    return new DegradedEmbedder(fallback, reason);
  }
}

/**
 * Builds the configured embedder. `local` does not fail for want of its model: the service keeps
 * working on the hashing embedder, logs one warning saying how to fix it, and reports itself
 * degraded. A malformed `openai` configuration throws EmbeddingError `invalid_config`.
 */
export async function createEmbedder(
  config: EmbedderConfig,
  logger: EmbeddingLogger,
  options: CreateEmbedderOptions = {},
): Promise<Embedder> {
  switch (config.provider) {
    case "local":
      return createLocal(config, logger, options);
    case "hashing":
      return createHashing(config, options);
    case "openai":
      return new OpenAiCompatibleEmbedder({
        baseUrl: required(config.baseUrl, "a base URL (FRONTDESK_EMBEDDINGS_BASE_URL)"),
        model: required(config.model, "a model (FRONTDESK_EMBEDDINGS_MODEL)"),
        apiKey: config.apiKey,
        dimensions: config.dimensions,
        batchSize: config.batchSize,
        onBatch: options.onBatch,
      });
  }
}
