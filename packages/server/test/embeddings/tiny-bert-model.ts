import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { encodeOnnxModel, floatTensor, int64Tensor, OnnxAttributeType, OnnxDataType, type OnnxValueInfo } from "./onnx-model-proto.js";

/**
 * A BERT-shaped model small enough to write at test time: a WordPiece tokenizer over a few
 * dozen words and an ONNX graph whose `last_hidden_state` is each token's row of a
 * hand-made embedding table (plus a token-type row, times the attention mask). Words about
 * the same topic point the same way, so mean-pooled sentences about one topic are close.
 */
export const TINY_HIDDEN_SIZE = 8;

const SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] as const;
const TOPICS: readonly (readonly string[])[] = [
  ["refund", "return", "money", "back", "payment", "reimbursed"],
  ["shipping", "delivery", "parcel", "courier", "arrive", "shipped"],
  ["open", "hours", "monday", "friday", "closed", "weekend"],
];
const FILLER_WORDS = ["how", "do", "i", "get", "my", "the", "a", "is", "when", "what", "are", "your", "will", "on", "was"];

const VOCABULARY: readonly string[] = [...SPECIAL_TOKENS, ...TOPICS.flat(), ...FILLER_WORDS];

/** Row of the embedding table for one vocabulary entry. */
function embeddingRow(token: string, id: number): number[] {
  const row = new Array<number>(TINY_HIDDEN_SIZE).fill(0);
  const topic = TOPICS.findIndex((words) => words.includes(token));
  if (topic >= 0) {
    row[topic * 2] = 1;
    row[topic * 2 + 1] = 0.25 * ((id % 3) - 1);
  } else if (token === "[PAD]") {
    // Padding contributes nothing.
  } else if (token === "[UNK]") {
    row[6] = 0.3;
  } else {
    row[7] = 0.05 + 0.01 * (id % 5);
  }
  return row;
}

function valueInfo(name: string, elemType: number, dims: Array<number | string>): OnnxValueInfo {
  const dim = dims.map((size) => (typeof size === "number" ? { dim_value: size } : { dim_param: size }));
  return { name, type: { tensor_type: { elem_type: elemType, shape: { dim } } } };
}

function buildOnnxModel(): Uint8Array {
  const table = VOCABULARY.flatMap((token, id) => embeddingRow(token, id));
  const typeTable = new Array<number>(2 * TINY_HIDDEN_SIZE).fill(0);
  const sequence = ["batch_size", "sequence_length"];
  return encodeOnnxModel({
    ir_version: 8,
    producer_name: "frontdesk-tests",
    opset_import: [{ domain: "", version: 13 }],
    graph: {
      name: "tiny_bert",
      initializer: [
        floatTensor("word_embeddings", [VOCABULARY.length, TINY_HIDDEN_SIZE], table),
        floatTensor("token_type_embeddings", [2, TINY_HIDDEN_SIZE], typeTable),
        int64Tensor("last_axis", [1], [2]),
      ],
      input: [
        valueInfo("input_ids", OnnxDataType.INT64, sequence),
        valueInfo("attention_mask", OnnxDataType.INT64, sequence),
        valueInfo("token_type_ids", OnnxDataType.INT64, sequence),
      ],
      output: [valueInfo("last_hidden_state", OnnxDataType.FLOAT, [...sequence, TINY_HIDDEN_SIZE])],
      node: [
        gather("word_gather", "word_embeddings", "input_ids", "words"),
        gather("type_gather", "token_type_embeddings", "token_type_ids", "types"),
        { op_type: "Add", name: "add", input: ["words", "types"], output: ["summed"] },
        {
          op_type: "Cast",
          name: "mask_cast",
          input: ["attention_mask"],
          output: ["mask_float"],
          attribute: [{ name: "to", type: OnnxAttributeType.INT, i: OnnxDataType.FLOAT }],
        },
        { op_type: "Unsqueeze", name: "mask_unsqueeze", input: ["mask_float", "last_axis"], output: ["mask_3d"] },
        { op_type: "Mul", name: "mask_mul", input: ["summed", "mask_3d"], output: ["last_hidden_state"] },
      ],
    },
  });
}

function gather(name: string, table: string, indices: string, output: string) {
  return {
    op_type: "Gather",
    name,
    input: [table, indices],
    output: [output],
    attribute: [{ name: "axis", type: OnnxAttributeType.INT, i: 0 }],
  };
}

function tokenizerJson(): object {
  const special = (content: string) => ({
    id: VOCABULARY.indexOf(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const piece = (kind: "SpecialToken" | "Sequence", id: string) => ({ [kind]: { id, type_id: 0 } });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map(special),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [piece("SpecialToken", "[CLS]"), piece("Sequence", "A"), piece("SpecialToken", "[SEP]")],
      pair: [piece("SpecialToken", "[CLS]"), piece("Sequence", "A"), piece("SpecialToken", "[SEP]"), piece("Sequence", "B")],
      special_tokens: Object.fromEntries(
        ["[CLS]", "[SEP]"].map((token) => [token, { id: token, ids: [VOCABULARY.indexOf(token)], tokens: [token] }]),
      ),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(VOCABULARY.map((token, id) => [token, id])),
    },
  };
}

const TOKENIZER_CONFIG = {
  tokenizer_class: "BertTokenizer",
  do_lower_case: true,
  model_max_length: 64,
  pad_token: "[PAD]",
  unk_token: "[UNK]",
  cls_token: "[CLS]",
  sep_token: "[SEP]",
  mask_token: "[MASK]",
  clean_up_tokenization_spaces: true,
};

const MODEL_CONFIG = {
  model_type: "bert",
  architectures: ["BertModel"],
  hidden_size: TINY_HIDDEN_SIZE,
  vocab_size: VOCABULARY.length,
  num_attention_heads: 1,
  num_hidden_layers: 1,
  max_position_embeddings: 64,
  type_vocab_size: 2,
  pad_token_id: 0,
};

/**
 * Writes the model under `<root>/<modelId>/` like a Hugging Face repository; `weights`
 * chooses the file name, which decides the dtype the local embedder loads.
 */
export async function writeTinyBertModel(
  root: string,
  modelId: string,
  weights: "model.onnx" | "model_quantized.onnx" = "model.onnx",
): Promise<string> {
  const directory = path.join(root, ...modelId.split("/"));
  await mkdir(path.join(directory, "onnx"), { recursive: true });
  await writeFile(path.join(directory, "config.json"), JSON.stringify(MODEL_CONFIG));
  await writeFile(path.join(directory, "tokenizer.json"), JSON.stringify(tokenizerJson()));
  await writeFile(path.join(directory, "tokenizer_config.json"), JSON.stringify(TOKENIZER_CONFIG));
  await writeFile(path.join(directory, "onnx", weights), buildOnnxModel());
  return directory;
}
