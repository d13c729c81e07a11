import { EmbeddingError } from "./embedding-error.js";

/**
 * The packages the `local` provider runs on. They are optional dependencies: `npm install`
 * installs them, `npm install --omit=optional` leaves them out (about 290 MB, mostly ONNX
 * Runtime's native libraries for every platform) for deployments that embed with `hashing` or
 * `openai`. Nothing imports them until a local model is loaded, in its worker thread, and the
 * build does not need them: the parts we use are typed here and checked when imported.
 */
const ONNX_RUNTIME = "onnxruntime-node";
const TOKENIZERS = "@huggingface/tokenizers";
export const LOCAL_RUNTIME_PACKAGES: readonly string[] = [ONNX_RUNTIME, TOKENIZERS];

export interface OnnxTensor {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: unknown;
}

export interface OnnxSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OnnxTensor>): Promise<Record<string, OnnxTensor | undefined>>;
}

/** The part of onnxruntime-node the local embedder uses. */
export interface OnnxRuntime {
  InferenceSession: {
    create(modelPath: string, options: { executionProviders: string[]; logSeverityLevel: number; intraOpNumThreads?: number }): Promise<OnnxSession>;
  };
  Tensor: new (type: "int64", data: BigInt64Array, dims: readonly number[]) => OnnxTensor;
}

/** The part of @huggingface/tokenizers the local embedder uses. */
export interface TokenizerConstructor {
  new (tokenizerJson: object, tokenizerConfig: object): {
    encode(text: string): { ids: number[] };
    token_to_id(token: string): number | undefined;
  };
}

/** The packages of `names` that cannot be resolved from this module (i.e. are not installed). */
export function missingPackages(names: readonly string[]): string[] {
  return names.filter((name) => {
    try {
      import.meta.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
}

/** Throws EmbeddingError `model_unavailable` naming what to install when a runtime package is absent. */
export function assertLocalRuntimeInstalled(names: readonly string[] = LOCAL_RUNTIME_PACKAGES): void {
  const missing = missingPackages(names);
  if (missing.length === 0) return;
  throw new EmbeddingError(
    "model_unavailable",
    `the local embedding provider needs the optional packages ${missing.join(" and ")}, which are not installed ` +
      "(npm install --omit=optional leaves them out): run `npm install` in the Frontdesk directory",
  );
}

function hasFunction(value: unknown, key: string): boolean {
  const container = typeof value === "object" || typeof value === "function" ? value : null;
  return container !== null && typeof Reflect.get(container, key) === "function";
}

function isOnnxRuntime(module: unknown): module is OnnxRuntime {
  const session: unknown = typeof module === "object" && module !== null ? Reflect.get(module, "InferenceSession") : undefined;
  return hasFunction(module, "Tensor") && hasFunction(session, "create");
}

function isTokenizerModule(module: unknown): module is { Tokenizer: TokenizerConstructor } {
  return hasFunction(module, "Tokenizer");
}

/** Imports ONNX Runtime and the tokenizer; only the local embedding worker thread calls this. */
export async function importLocalRuntime(): Promise<{ ort: OnnxRuntime; Tokenizer: TokenizerConstructor }> {
  assertLocalRuntimeInstalled();
  const [ort, tokenizers]: unknown[] = await Promise.all([import(ONNX_RUNTIME), import(TOKENIZERS)]);
  if (!isOnnxRuntime(ort) || !isTokenizerModule(tokenizers)) {
    throw new Error(`${ONNX_RUNTIME} or ${TOKENIZERS} is not the version this embedder was written for (run \`npm install\`)`);
  }
  return { ort, Tokenizer: tokenizers.Tokenizer };
}
