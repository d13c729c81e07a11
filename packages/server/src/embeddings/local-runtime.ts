import { EmbeddingError } from "./embedding-error.js";

/**
 * The packages the `local` provider runs on. They are optional dependencies: `npm install`
 * installs them, `npm install --omit=optional` leaves them out (about 290 MB, mostly ONNX
 * Runtime's native libraries for every platform) for deployments that embed with `hashing` or
 * `openai`. Nothing imports them until a local model is loaded, in its worker thread.
 */
export const LOCAL_RUNTIME_PACKAGES = ["onnxruntime-node", "@huggingface/tokenizers"] as const;

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

/** Imports ONNX Runtime and the tokenizer; only the local embedding worker thread calls this. */
export async function importLocalRuntime(): Promise<{
  ort: typeof import("onnxruntime-node");
  Tokenizer: typeof import("@huggingface/tokenizers").Tokenizer;
}> {
  assertLocalRuntimeInstalled();
  const [ort, tokenizers] = await Promise.all([import("onnxruntime-node"), import("@huggingface/tokenizers")]);
  return { ort, Tokenizer: tokenizers.Tokenizer };
}
