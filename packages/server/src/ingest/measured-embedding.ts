import type { Embedder } from "../embeddings/embedder.js";
import type { IngestPipeline } from "./ingest-pipeline.js";

/** Embeds one document's chunk texts with `embedder` (its workspace's), counting the chunks and timing the call. */
export async function embedMeasured(pipeline: IngestPipeline, embedder: Embedder, texts: string[]): Promise<Float32Array[]> {
  const started = performance.now();
  const vectors = await embedder.embed(texts);
  pipeline.metrics.chunksEmbedded(texts.length, (performance.now() - started) / 1000);
  return vectors;
}
