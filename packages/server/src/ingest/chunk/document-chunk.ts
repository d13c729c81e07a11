/** A piece of a document small enough to embed, with the context it is cited under. */
export interface DocumentChunk {
  /** Position in the document, from 0. */
  index: number;
  /** The nearest heading above the chunk's first text; null before the first heading. */
  heading: string | null;
  /** The document's title. */
  title: string;
  text: string;
  /** `estimateTokens(text)`: an estimate of the BERT WordPiece count of `text`. */
  tokenEstimate: number;
  /** The page of the document it is on (a PDF's pages: a chunk never spans two). */
  page?: number;
}

export interface ChunkOptions {
  /** The size chunks are packed to, in estimated tokens. Default 300. */
  targetTokens?: number;
  /** The share of `targetTokens` repeated from the end of the previous chunk. Default 0.15. */
  overlapRatio?: number;
  /** No chunk exceeds this, in estimated tokens. Default 1.5 × `targetTokens`. */
  maxTokens?: number;
}
