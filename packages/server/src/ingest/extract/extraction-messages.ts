import type { DocumentChunk } from "../chunk/document-chunk.js";
import type { ExtractedDocument, ExtractInput } from "./extracted-document.js";

/** Sent to an extraction worker: one page to extract. */
export interface ExtractionRequest {
  id: number;
  input: ExtractInput;
}

/** Sent back by an extraction worker for the request with the same id. */
export type ExtractionResponse =
  | { id: number; ok: true; document: ExtractedDocument; chunks: DocumentChunk[] }
  | { id: number; ok: false; message: string };

const CONTENT_TYPES: ReadonlySet<unknown> = new Set(["text/html", "application/xhtml+xml", "text/plain"]);

/** Checks a message that arrived on a worker port before it is used as a request. */
export function isExtractionRequest(value: unknown): value is ExtractionRequest {
  if (!isRecord(value) || typeof value.id !== "number" || !isRecord(value.input)) return false;
  const input = value.input;
  return (
    typeof input.body === "string" &&
    typeof input.url === "string" &&
    CONTENT_TYPES.has(input.contentType) &&
    (input.title === undefined || typeof input.title === "string")
  );
}

/** Checks a message that arrived from a worker before it settles a request. */
export function isExtractionResponse(value: unknown): value is ExtractionResponse {
  if (!isRecord(value) || typeof value.id !== "number") return false;
  if (value.ok === false) return typeof value.message === "string";
  return value.ok === true && isRecord(value.document) && typeof value.document.text === "string" && Array.isArray(value.chunks);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
