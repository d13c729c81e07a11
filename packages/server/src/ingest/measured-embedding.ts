import type { IngestPipeline } from "./ingest-pipeline.js";

/** Embeds one document's chunk texts with the pipeline's embedder, counting the chunks and timing the call. */
export async function embedMeasured(pipeline: IngestPipeline, texts: string[]): Promise<Float32Array[]> {
  const started = performance.now();
  const vectors = await pipeline.embedder.embed(texts);
  pipeline.metrics.chunksEmbedded(texts.length, (performance.now() - started) / 1000);
  return vectors;
}
