import { access } from "node:fs/promises";
import path from "node:path";

/** The ONNX weights transformers.js can load: `onnx/model.onnx` (fp32) or `onnx/model_quantized.onnx` (q8). */
export type LocalModelDtype = "fp32" | "q8";

const WEIGHT_FILES: ReadonlyArray<{ dtype: LocalModelDtype; file: string }> = [
  { dtype: "fp32", file: "model.onnx" },
  { dtype: "q8", file: "model_quantized.onnx" },
];

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
 * layout of both a hand-placed model directory and transformers.js' file cache. The first
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
