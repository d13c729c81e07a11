import type { EmbedOptions, Embedder, EmbedderStatus } from "./embedder.js";

/**
 * A stand-in embedder used because the configured one could not be had. It embeds exactly
 * like the embedder it wraps (same id, so vectors record who really made them) and reports
 * itself as degraded, with the reason, on /healthz.
 */
export class DegradedEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;

  constructor(
    private readonly standIn: Embedder,
    private readonly reason: string,
  ) {
    this.id = standIn.id;
    this.dimensions = standIn.dimensions;
  }

  embed(texts: readonly string[], options?: EmbedOptions): Promise<Float32Array[]> {
    return this.standIn.embed(texts, options);
  }

  status(): EmbedderStatus {
    return { ...this.standIn.status(), degraded: true, reason: this.reason };
  }

  close(): Promise<void> {
    return this.standIn.close();
  }
}
