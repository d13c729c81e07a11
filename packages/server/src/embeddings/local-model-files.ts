import { access } from "node:fs/promises";
import path from "node:path";

/** The ONNX weights a local model may have: `onnx/model.onnx` (fp32) or `onnx/model_quantized.onnx` (q8). */
export type LocalModelDtype = "fp32" | "q8";

const WEIGHT_FILES: ReadonlyArray<{ dtype: LocalModelDtype; file: string }> = [
  { dtype: "fp32", file: "model.onnx" },
  { dtype: "q8", file: "model_quantized.onnx" },
];

/** The files of a model besides its weights, read when it loads. */
export const LOCAL_MODEL_CONFIG_FILES = ["config.json", "tokenizer.json", "tokenizer_config.json"] as const;

/** Where a model's weights of a dtype live in its directory, e.g. `onnx/model.onnx`. */
export function weightsFileFor(dtype: LocalModelDtype): string {
  const weights = WEIGHT_FILES.find((entry) => entry.dtype === dtype) ?? WEIGHT_FILES[0];
  return `onnx/${weights?.file ?? "model.onnx"}`;
}

/** Every file a model of that dtype needs, relative to its directory. */
export function localModelFileList(dtype: LocalModelDtype): string[] {
  return [...LOCAL_MODEL_CONFIG_FILES, weightsFileFor(dtype)];
}

export interface LocalModelFiles {
  dtype: LocalModelDtype;
  /** The model's directory, laid out like its Hugging Face repository. */
  directory: string;
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Looks for a model's weights under each root in turn (`<root>/<org>/<name>/onnx/…`), the
 * layout of both a hand-placed model directory and the download cache. The first
 * root wins; within a root, full precision is preferred over quantized.
 */
export async function findLocalModelFiles(modelId: string, roots: readonly string[]): Promise<LocalModelFiles | undefined> {
  for (const root of roots) {
    const directory = path.join(root, ...modelId.split("/"));
    for (const { dtype, file } of WEIGHT_FILES) {
      if (await exists(path.join(directory, "onnx", file))) return { dtype, directory };
    }
  }
  return undefined;
}
