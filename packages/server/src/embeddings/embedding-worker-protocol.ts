/** Messages between an embedding worker pool (main thread) and its worker threads. */

export type EmbeddingWorkerRequest = { type: "embed"; taskId: number; texts: string[] } | { type: "close" };

export type EmbeddingWorkerReply =
  | { type: "ready"; dimensions: number }
  | { type: "load_failed"; message: string }
  | { type: "embedded"; taskId: number; vectors: Float32Array[] }
  | { type: "embed_failed"; taskId: number; message: string };

const REPLY_TYPES: ReadonlySet<string> = new Set(["ready", "load_failed", "embedded", "embed_failed"]);
const REQUEST_TYPES: ReadonlySet<string> = new Set(["embed", "close"]);

function hasType(message: unknown, types: ReadonlySet<string>): boolean {
  return (
    typeof message === "object" &&
    message !== null &&
    "type" in message &&
    typeof message.type === "string" &&
    types.has(message.type)
  );
}

/** Messages only ever come from our own threads; the guard keeps a stray message from being misread. */
export function isEmbeddingWorkerReply(message: unknown): message is EmbeddingWorkerReply {
  return hasType(message, REPLY_TYPES);
}

export function isEmbeddingWorkerRequest(message: unknown): message is EmbeddingWorkerRequest {
  return hasType(message, REQUEST_TYPES);
}
