import { collectDefaultMetrics, Registry } from "prom-client";

/**
 * The process's one Prometheus registry, with the process metrics (`frontdesk_process_*`,
 * `frontdesk_nodejs_*`). HTTP, retrieval, rate-limit, job and ingest metrics register on it;
 * `GET /metrics` (serve) or the metrics listener (worker) serve it.
 */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "frontdesk_" });
  return registry;
}
