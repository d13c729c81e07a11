import { Gauge, type Registry } from "prom-client";
import type { Queryable } from "../db/database.js";
import { jobCatalog, type JobName } from "../jobs/job-catalog.js";
import { readQueueStatistics, type QueueStatistics } from "../jobs/queue-statistics-repository.js";

/** One scrape reads the store once for both gauges. */
const READ_REUSE_MS = 1_000;

/**
 * Queue depth and the age of the oldest waiting job, by job name, read from the shared store at
 * scrape time: every process reports the same figures (aggregate them with max, not sum).
 */
export function registerJobQueueMetrics(registry: Registry, db: Queryable, onError?: (error: unknown) => void): void {
  let last: { at: number; read: Promise<QueueStatistics[] | null> } | null = null;
  const read = (): Promise<QueueStatistics[] | null> => {
    if (last && Date.now() - last.at < READ_REUSE_MS) return last.read;
    const reading = readQueueStatistics(db).catch((error: unknown) => {
      onError?.(error);
      return null;
    });
    last = { at: Date.now(), read: reading };
    return reading;
  };
  const names = Object.keys(jobCatalog) as JobName[];
  const setAll = (gauge: Gauge<"name">, statistics: QueueStatistics[], value: (entry: QueueStatistics) => number) => {
    for (const name of names) {
      const entry = statistics.find((candidate) => candidate.name === name);
      gauge.set({ name }, entry ? value(entry) : 0);
    }
  };
  new Gauge({
    name: "frontdesk_job_queue_depth",
    help: "Jobs waiting to run (created, or waiting for a retry), by job name, in the shared store.",
    labelNames: ["name"] as const,
    registers: [registry],
    async collect() {
      const statistics = await read();
      if (statistics) setAll(this, statistics, (entry) => entry.queued);
    },
  });
  new Gauge({
    name: "frontdesk_job_queue_oldest_age_seconds",
    help: "Seconds the oldest runnable waiting job has waited, by job name (0 when none waits).",
    labelNames: ["name"] as const,
    registers: [registry],
    async collect() {
      const statistics = await read();
      if (statistics) setAll(this, statistics, (entry) => entry.oldestQueuedSeconds);
    },
  });
}
