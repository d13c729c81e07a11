import type { Config } from "../config/config.js";
import type { Embedder } from "../embeddings/embedder.js";
import { unobservedIngestMetrics, type IngestMetrics } from "../observability/ingest-metrics.js";
import { createExtractionPool, type ExtractionPool } from "./extract/extraction-pool.js";
import { createFileExtractionPool, type FileExtractionPool, type FileExtractionPoolOptions } from "./extract/file-extraction-pool.js";
import { createCrawler, type Crawler } from "./fetch/crawler.js";
import { instanceEmbedderOnly, type ActiveEmbedders } from "./embedding-generations/workspace-embedders.js";

/** The long-lived parts the indexing jobs share: a crawler, extraction workers, the embedder. */
export interface IngestPipeline {
  crawler: Crawler;
  extraction: ExtractionPool;
  /** Uploaded files, on threads with memory and time limits. */
  files: FileExtractionPool;
  /** The instance's embedder (FRONTDESK_EMBEDDINGS_*). */
  embedder: Embedder;
  /** Each workspace's embedder: documents are embedded with their workspace's active one. */
  embedders: ActiveEmbedders;
  /** Jobs, page fetches and embeddings counted for /metrics. */
  metrics: IngestMetrics;
  sitemapMaxPages: number;
  close(): Promise<void>;
}

export interface IngestPipelineOptions {
  /** Overrides for tests: shorter timeouts, a worker file from dist, … */
  crawler?: Parameters<typeof createCrawler>[0];
  extractionWorkerUrl?: URL;
  /**
   * Page extraction threads owned elsewhere, used instead of a pool of the pipeline's own and left
   * open by `close()` (the tests' apps share one per process: a thread's start costs ~0.2 s of CPU).
   */
  extraction?: ExtractionPool;
  /** The file extraction threads: their worker file, time and memory limits (tests shorten them). */
  files?: Partial<FileExtractionPoolOptions>;
  /** Where jobs, fetches and embeddings are counted; nowhere by default. */
  metrics?: IngestMetrics;
  /** Workspaces' own embedders (the service's); without it every workspace uses `embedder`. */
  embedders?: ActiveEmbedders;
}

export function createIngestPipeline(config: Config, embedder: Embedder, options: IngestPipelineOptions = {}): IngestPipeline {
  const crawler = createCrawler({
    allowPrivateNetworks: config.crawler.allowPrivateNetworks,
    ...(config.crawler.userAgent ? { userAgent: config.crawler.userAgent } : {}),
    ...options.crawler,
  });
  const extraction =
    options.extraction ??
    createExtractionPool({
      size: Math.max(1, config.workers.concurrency),
      ...(options.extractionWorkerUrl ? { workerUrl: options.extractionWorkerUrl } : {}),
    });
  const files = createFileExtractionPool({ size: Math.max(1, config.workers.concurrency), ...options.files });
  return {
    crawler,
    extraction,
    files,
    embedder,
    embedders: options.embedders ?? instanceEmbedderOnly(embedder),
    metrics: options.metrics ?? unobservedIngestMetrics,
    sitemapMaxPages: config.ingest.sitemapMaxPages,
    async close() {
      await crawler.close();
      if (!options.extraction) await extraction.close();
      await files.close();
    },
  };
}
