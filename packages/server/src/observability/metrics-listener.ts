import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { Database } from "../db/database.js";
import { registerJobQueueMetrics } from "./job-queue-metrics.js";

export interface MetricsListener {
  /** `http://host:port` it listens on. */
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` for a process without the HTTP API (`worker`): its job, page, embedding and
 * process metrics, and the queue gauges read from the shared store. Nothing else is served.
 */
export async function listenForMetrics(services: { metrics: Registry; db: Database }, host: string, port: number, logger: Logger): Promise<MetricsListener> {
  const registry = services.metrics;
  registerJobQueueMetrics(registry, services.db, (error) => logger.warn({ err: error }, "job queue metrics unavailable"));
  const server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (request.method === "GET" && path === "/metrics") {
      registry.metrics().then(
        (text) => {
          response.writeHead(200, { "content-type": registry.contentType });
          response.end(text);
        },
        (error: unknown) => {
          logger.error({ err: error }, "metrics could not be collected");
          response.writeHead(500, { "content-type": "application/json" });
          response.end(JSON.stringify({ error: { code: "internal_error", message: "The metrics could not be collected." } }));
        },
      );
      return;
    }
    response.writeHead(404, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { code: "not_found", message: "Only GET /metrics is served here." } }));
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;
  logger.info({ url: `${url}/metrics` }, "metrics listening");
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
