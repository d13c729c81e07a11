import type { Embedder } from "../../src/embeddings/embedder.js";
import { HashingEmbedder } from "../../src/embeddings/hashing-embedder.js";

/** The hashing embedder, counting the texts it embeds: a test asserts what was (re-)embedded by counts, never by time. */
export class CountingEmbedder extends HashingEmbedder implements Embedder {
  embedded = 0;
  override async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.embedded += texts.length;
    return super.embed(texts);
  }
}
