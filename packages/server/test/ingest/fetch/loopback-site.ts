import { createServer } from "node:http";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { onTestFinished, test } from "vitest";
import { createCrawler } from "../../../src/ingest/fetch/crawler.js";
import type { Crawler } from "../../../src/ingest/fetch/crawler.js";
import type { CrawlerOptions } from "../../../src/ingest/fetch/crawler-settings.js";

export type RouteHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface RecordedRequest {
  path: string;
  host: string | undefined;
  userAgent: string | undefined;
  /** `performance.now()` when the request arrived. */
  at: number;
}

/** A real HTTP server on 127.0.0.1 that counts what the crawler does to it. */
export interface LoopbackSite {
  origin: string;
  port: number;
  url(path: string): string;
  /** Serves `path` (exact, or a prefix when it ends with `*`). Unrouted paths are 404. */
  route(path: string, handler: RouteHandler): void;
  requests: RecordedRequest[];
  hits(path: string): number;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Most requests ever in flight at once. */
  maxInFlight(): number;
  close(): Promise<void>;
}

export async function startLoopbackSite(): Promise<LoopbackSite> {
  const exact = new Map<string, RouteHandler>();
  const prefixes: Array<[string, RouteHandler]> = [];
  const requests: RecordedRequest[] = [];
  let connections = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://site.invalid").pathname;
    requests.push({ path, host: request.headers.host, userAgent: request.headers["user-agent"], at: performance.now() });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.on("close", () => {
      inFlight -= 1;
    });
    const handler = exact.get(path) ?? prefixes.find(([prefix]) => path.startsWith(prefix))?.[1];
    if (handler === undefined) send(404, "not found", { "content-type": "text/plain" })(request, response);
    else handler(request, response);
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    port,
    url: (path) => `${origin}${path}`,
    route(path, handler) {
      if (path.endsWith("*")) prefixes.push([path.slice(0, -1), handler]);
      else exact.set(path, handler);
    },
    requests,
    hits: (path) => requests.filter((request) => request.path === path).length,
    connections: () => connections,
    maxInFlight: () => maxInFlight,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A response with a fixed status, body and headers. */
export function send(status: number, body: string | Buffer, headers: OutgoingHttpHeaders = {}): RouteHandler {
  return (_request, response) => {
    response.writeHead(status, { "content-length": Buffer.byteLength(body), ...headers });
    response.end(body);
  };
}

export function html(body: string | Buffer, contentType = "text/html; charset=utf-8"): RouteHandler {
  return send(200, body, { "content-type": contentType });
}

export function redirect(location: string, status = 302): RouteHandler {
  return send(status, "", { location });
}

/** A test with a fresh loopback site, closed afterwards. */
export const siteTest = test.extend<{ site: LoopbackSite }>({
  // The empty pattern is how Vitest learns that this fixture depends on no other.
  site: async ({}, use) => {
    const site = await startLoopbackSite();
    await use(site);
    await site.close();
  },
});

/** A crawler for one test, closed when it finishes. The SSRF guard is off unless a test turns it on. */
export function openCrawler(options: CrawlerOptions = {}): Crawler {
  const crawler = createCrawler({ allowPrivateNetworks: true, ...options });
  onTestFinished(() => crawler.close());
  return crawler;
}

/** The FetchError a promise rejects with, for asserting on its fields. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject");
}
