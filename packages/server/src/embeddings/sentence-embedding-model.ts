import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { importLocalRuntime, type OnnxTensor } from "./local-runtime.js";
import { LOCAL_MODEL_CONFIG_FILES } from "./local-model-files.js";

/** What a sentence-embedding model needs: its directory (laid out like its Hub repository) and weights. */
export interface SentenceEmbeddingModelFiles {
  directory: string;
  /** Relative to `directory`, e.g. `onnx/model.onnx`. */
  weights: string;
  /** ONNX Runtime threads; its default is one per core. */
  intraOpThreads?: number;
}

export interface SentenceEmbeddingModel {
  readonly dimensions: number;
  embed(texts: string[]): Promise<Float32Array[]>;
}

const tokenName = z.union([z.string(), z.object({ content: z.string() })]).transform((token) => (typeof token === "string" ? token : token.content));
const tokenizerConfigSchema = z.looseObject({
  model_max_length: z.number().positive().optional(),
  pad_token: tokenName.nullish(),
  padding_side: z.enum(["left", "right"]).optional(),
});

interface EncodedBatch {
  rows: number;
  length: number;
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
}

async function readJson(directory: string, file: string): Promise<unknown> {
  return JSON.parse(await readFile(path.join(directory, file), "utf8"));
}

/**
 * A Hugging Face sentence-embedding model (BERT family: MiniLM, BGE, E5 …) run with ONNX Runtime
 * and its `tokenizer.json`: texts are tokenized, padded to the longest and cut at the model's
 * length, the last hidden state is mean-pooled over real tokens and L2-normalised — what
 * transformers.js' `feature-extraction` pipeline with `pooling: "mean", normalize: true` computes.
 */
export async function loadSentenceEmbeddingModel(files: SentenceEmbeddingModelFiles): Promise<SentenceEmbeddingModel> {
  const { ort, Tokenizer } = await importLocalRuntime();
  const [, tokenizerJson, tokenizerConfigJson] = await Promise.all(LOCAL_MODEL_CONFIG_FILES.map((file) => readJson(files.directory, file)));
  const tokenizerConfig = tokenizerConfigSchema.parse(tokenizerConfigJson);
  const tokenizer = new Tokenizer(z.looseObject({}).parse(tokenizerJson), tokenizerConfig);
  const maxLength = tokenizerConfig.model_max_length ?? Number.POSITIVE_INFINITY;
  const padId = BigInt(tokenizerConfig.pad_token == null ? 0 : (tokenizer.token_to_id(tokenizerConfig.pad_token) ?? 0));
  const padLeft = tokenizerConfig.padding_side === "left";

  const session = await ort.InferenceSession.create(path.join(files.directory, files.weights), {
    executionProviders: ["cpu"],
    logSeverityLevel: 3,
    ...(files.intraOpThreads === undefined ? {} : { intraOpNumThreads: files.intraOpThreads }),
  });
  const firstOutput = session.outputNames.includes("last_hidden_state") ? "last_hidden_state" : session.outputNames[0];
  if (firstOutput === undefined) throw new Error(`${files.weights} has no output`);
  const outputName: string = firstOutput;

  function encode(texts: string[]): EncodedBatch {
    const encoded: number[][] = texts.map((text) => tokenizer.encode(text).ids.slice(0, maxLength));
    const length = Math.max(1, ...encoded.map((ids) => ids.length));
    const inputIds = new BigInt64Array(texts.length * length).fill(padId);
    const attentionMask = new BigInt64Array(texts.length * length);
    encoded.forEach((ids, row) => {
      const start = row * length + (padLeft ? length - ids.length : 0);
      ids.forEach((id, column) => {
        inputIds[start + column] = BigInt(id);
        attentionMask[start + column] = 1n;
      });
    });
    return { rows: texts.length, length, inputIds, attentionMask };
  }

  async function embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const batch = encode(texts);
    const shape = [batch.rows, batch.length];
    const feeds: Record<string, OnnxTensor> = {};
    for (const name of session.inputNames) {
      if (name === "input_ids") feeds[name] = new ort.Tensor("int64", batch.inputIds, shape);
      else if (name === "attention_mask") feeds[name] = new ort.Tensor("int64", batch.attentionMask, shape);
      else if (name === "token_type_ids") feeds[name] = new ort.Tensor("int64", new BigInt64Array(batch.inputIds.length), shape);
      else throw new Error(`${files.weights} asks for an input this embedder does not know: ${name}`);
    }
    const output = (await session.run(feeds))[outputName];
    const [rows, length, dimensions] = output?.dims ?? [];
    if (!(output?.data instanceof Float32Array) || rows !== batch.rows || length !== batch.length || dimensions === undefined) {
      throw new Error(`the model returned ${output?.type ?? "no"} output of shape [${output?.dims.join(", ") ?? ""}] for ${texts.length} texts`);
    }
    return meanPoolAndNormalise(output.data, batch, dimensions);
  }

  const [probe] = await embed(["dimension probe"]);
  return { dimensions: probe?.length ?? 0, embed };
}

/** Averages each row's hidden states over its real tokens, then scales the mean to unit length. */
function meanPoolAndNormalise(hidden: Float32Array, batch: EncodedBatch, dimensions: number): Float32Array[] {
  const vectors: Float32Array[] = [];
  for (let row = 0; row < batch.rows; row++) {
    const vector = new Float32Array(dimensions);
    const tokens = row * batch.length;
    for (let dimension = 0; dimension < dimensions; dimension++) {
      let sum = 0;
      let count = 0;
      for (let token = 0; token < batch.length; token++) {
        const mask = Number(batch.attentionMask[tokens + token]);
        count += mask;
        sum += (hidden[(tokens + token) * dimensions + dimension] ?? 0) * mask;
      }
      vector[dimension] = sum / count;
    }
    // Float32 accumulation, like transformers.js' Tensor.normalize, so vectors match the ones it made.
    const squares = new Float32Array(1);
    for (const value of vector) squares[0] = (squares[0] ?? 0) + value * value;
    const norm = Math.fround(Math.sqrt(squares[0] ?? 0));
    if (norm > 0) for (let dimension = 0; dimension < dimensions; dimension++) vector[dimension] = (vector[dimension] ?? 0) / norm;
    vectors.push(vector);
  }
  return vectors;
}
