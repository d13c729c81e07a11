import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import type { LogLine } from "../support/captured-log.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { createMetricsRegistry } from "../../src/observability/metrics-registry.js";

/**
 * Issue 29: `npm start` on a terminal logged each request over about sixteen lines. Now one line
 * per request (method, path, status, ms), health probes at debug level, and never a query string.
 */
// The log does not depend on the store: one store is enough.
describe("the request log", () => {
  let t: TestApp;
  const lines: LogLine[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    t = await createTestApp("pglite");
    const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
    app = await buildApp({ ...t.services, metrics: createMetricsRegistry() }, { loggerInstance: logger });
  });
  afterAll(async () => {
    await app.close();
    await t.close();
  });

  it("happy: one line per request with method, path, status and duration; probes at debug; no query string", async () => {
    lines.length = 0;
    const answered = await app.inject({ method: "GET", url: "/console/setup?token=secret-setup-token-123" });
    const probe = await app.inject({ method: "GET", url: "/livez" });
    const refused = await app.inject({ method: "POST", url: "/api/v1/widget/init", payload: {} });
    expect(probe.statusCode).toBe(200);
    const requestLines = lines.filter((line) => typeof line.path === "string");
    expect(requestLines.map(({ level, method, path, status }) => ({ level, method, path, status }))).toEqual([
      { level: 30, method: "GET", path: "/console/setup", status: answered.statusCode },
      { level: 20, method: "GET", path: "/livez", status: 200 },
      { level: 30, method: "POST", path: "/api/v1/widget/init", status: refused.statusCode },
    ]);
    for (const line of requestLines) expect(line.ms).toEqual(expect.any(Number));
    expect(requestLines[0]!.msg).toBe(`GET /console/setup ${answered.statusCode} ${requestLines[0]!.ms} ms`);
    expect(JSON.stringify(lines)).not.toContain("secret-setup-token-123");
    expect(lines.filter((line) => line.msg === "incoming request" || line.msg === "request completed")).toEqual([]);
  });
});
