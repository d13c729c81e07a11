/** What an embedding pool asks of its worker threads, and what they answer. */

/** Embed these texts, in order; with none, only make sure the embedder is loaded (and learn its size). */
export interface EmbeddingTask {
  texts: string[];
}

export type EmbeddingTaskResult =
  | { kind: "embedded"; dimensions: number; vectors: Float32Array[]; threadId: number }
  /** The thread could not load its embedder; the next task tries again. */
  | { kind: "load_failed"; message: string };
