import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { jobCatalog } from "../jobs/job-catalog.js";

/** How a job handler's attempt ended: it returned, or it threw and will be retried, or it threw for the last time. */
export type JobOutcome = "completed" | "retried" | "failed";

/** What the indexing workers of this process report; the counters sum across processes. */
export interface IngestMetrics {
  /** A job handler starts; call the returned function once with how it ended. */
  jobStarted(name: string): (outcome: JobOutcome) => void;
  /** A page fetch ended: `ok`, or the fetch error's code (`blocked_address`, `http_status`, …). */
  pageFetched(outcome: string): void;
  /** One call to the embedder: how many chunks, how long it took. */
  chunksEmbedded(count: number, seconds: number): void;
}

/** For pipelines nobody scrapes (scripts, evaluations). */
export const unobservedIngestMetrics: IngestMetrics = {
  jobStarted: () => () => undefined,
  pageFetched: () => undefined,
  chunksEmbedded: () => undefined,
};

/** Jobs by name and outcome, pages fetched by outcome, chunks embedded and embedding time. */
export function registerIngestMetrics(registry: Registry): IngestMetrics {
  const registers = [registry];
  const active = new Gauge({ name: "frontdesk_jobs_active", help: "Jobs this process is running now, by job name.", labelNames: ["name"] as const, registers });
  const processed = new Counter({
    name: "frontdesk_jobs_processed_total",
    help: "Job attempts this process finished, by job name and outcome: completed, retried (threw, will run again) or failed (threw on its last attempt).",
    labelNames: ["name", "outcome"] as const,
    registers,
  });
  const duration = new Histogram({
    name: "frontdesk_job_duration_seconds",
    help: "Time a job attempt took, by job name.",
    labelNames: ["name"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers,
  });
  const pages = new Counter({
    name: "frontdesk_ingest_pages_fetched_total",
    help: "Page fetches by outcome: ok, or the error code (blocked_address, robots_disallowed, http_status, not_html, too_large, fetch_failed, invalid_url).",
    labelNames: ["outcome"] as const,
    registers,
  });
  const chunks = new Counter({ name: "frontdesk_ingest_chunks_embedded_total", help: "Chunks embedded by the indexing workers.", registers });
  const embedding = new Histogram({
    name: "frontdesk_ingest_embedding_duration_seconds",
    help: "Time to embed one document's chunks (one call to the embedder).",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  for (const name of Object.keys(jobCatalog)) {
    active.set({ name }, 0);
    for (const outcome of ["completed", "retried", "failed"] as const) processed.inc({ name, outcome }, 0);
  }
  pages.inc({ outcome: "ok" }, 0);

  return {
    jobStarted(name) {
      active.inc({ name });
      const endTimer = duration.startTimer({ name });
      return (outcome) => {
        active.dec({ name });
        endTimer();
        processed.inc({ name, outcome });
      };
    },
    pageFetched: (outcome) => pages.inc({ outcome }),
    chunksEmbedded(count, seconds) {
      chunks.inc(count);
      embedding.observe(seconds);
    },
  };
}
