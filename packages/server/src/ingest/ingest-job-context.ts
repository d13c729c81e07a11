import type { Logger } from "pino";
import type { Database } from "../db/database.js";
import type { FrontdeskEvents } from "../events/frontdesk-events.js";
import type { JobQueue } from "../jobs/job-queue.js";
import type { SourceRecord } from "../sources/sources.js";
import type { FileQuestionsSink } from "./file-questions-sink.js";
import type { IngestPipeline } from "./ingest-pipeline.js";
import type { IngestProgressLog } from "./ingest-progress-log.js";
import type { SitemapCountsThrottle } from "./refresh-sitemap-progress.js";

/** What every indexing job works with in one process. */
export interface IngestJobContext {
  db: Database;
  jobs: JobQueue;
  /** Raises a change's domain event in its transaction (a source settled). */
  events: FrontdeskEvents;
  pipeline: IngestPipeline;
  logger: Logger;
  /** The `info` lines of a source's indexing: start, a sitemap's progress, end. */
  progress: IngestProgressLog;
  /** When this process last counted each sitemap's pages (absent: counted after every page). */
  sitemapCounts?: SitemapCountsThrottle;
  /** An agent's chunks changed (this process's caches of its knowledge are stale). */
  onKnowledgeChanged?: (agentId: string) => void;
  /** A source's state or progress changed, committed (the Knowledge screen is told); `progress` when the caller knows whether it still syncs. */
  onSourceChanged?: (sourceId: string, progress?: { syncing: boolean }) => void;
  /** Where a CSV's rows go when its owner chose curated answers (the composition root gives the curated answers' owner). */
  fileQuestions?: FileQuestionsSink;
  /** The source kinds that plug into ingestion, by kind: `index-source` hands a source of theirs to them. */
  sourceKinds?: ReadonlyMap<string, SourceKindPlugin>;
}

/**
 * A source kind that plugs into ingestion from its own folder (the WordPress sync: its posts are
 * pushed, not fetched), so that ingestion never imports it: `index-source` hands its sources to
 * `sync`, and its own jobs start with the other indexing workers.
 */
export interface SourceKindPlugin {
  /** The `sources.kind` it owns. */
  kind: string;
  /** Job `index-source` for a source of this kind: a first sync or a re-sync. */
  sync(context: IngestJobContext, source: SourceRecord): Promise<void>;
  /** Starts the kind's own job workers with this process's indexing context. */
  registerWorkers(context: IngestJobContext, concurrency: number): Promise<void>;
}
