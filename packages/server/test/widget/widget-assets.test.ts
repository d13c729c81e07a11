import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import { createMetricsRegistry } from "../../src/observability/metrics-registry.js";
import { DEFAULT_WIDGET_BUILD_DIRECTORY } from "../../src/widget/widget-build.js";
import { capturedLogger, LOG_LEVELS } from "../support/captured-log.js";
import { createTestApp, type TestApp } from "../support/test-app.js";

/** The files `npm run build` wrote (the suite's `pretest` builds them). */
async function builtWidget() {
  const manifest = JSON.parse(await readFile(join(DEFAULT_WIDGET_BUILD_DIRECTORY, "manifest.json"), "utf8")) as { entry: string };
  return {
    entry: manifest.entry,
    loader: await readFile(join(DEFAULT_WIDGET_BUILD_DIRECTORY, "widget.js")),
    bundle: await readFile(join(DEFAULT_WIDGET_BUILD_DIRECTORY, "assets", manifest.entry)),
  };
}

describe("GET /widget.js and /widget/assets/{name}", () => {
  let t: TestApp;
  let built: Awaited<ReturnType<typeof builtWidget>>;
  beforeAll(async () => {
    built = await builtWidget();
    t = await createTestApp("pglite");
  });
  afterAll(() => t.close());

  it("happy: widget.js is the built loader, cached five minutes with an ETag, loadable from any origin", async () => {
    const response = await t.app.inject({ method: "GET", url: "/widget.js", headers: { origin: "https://shop.example.com" } });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(built.loader)).toBe(true);
    expect(response.headers).toMatchObject({
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=300",
      "access-control-allow-origin": "*",
      "cross-origin-resource-policy": "cross-origin",
      "x-content-type-options": "nosniff",
    });
    expect(response.headers.etag).toMatch(/^"[\w-]{27}"$/);
    expect(response.body).toContain(built.entry);
  });

  it("happy: a matching If-None-Match is 304 without a body; another ETag gets the file", async () => {
    const first = await t.app.inject({ method: "GET", url: "/widget.js" });
    const etag = String(first.headers.etag);
    const again = await t.app.inject({ method: "GET", url: "/widget.js", headers: { "if-none-match": `W/"old", ${etag}` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    const stale = await t.app.inject({ method: "GET", url: "/widget.js", headers: { "if-none-match": '"something-else"' } });
    expect(stale.statusCode).toBe(200);
  });

  it("happy: a client that accepts gzip gets the file gzipped", async () => {
    const response = await t.app.inject({ method: "GET", url: "/widget.js", headers: { "accept-encoding": "br, gzip" } });
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(response.headers.vary).toContain("Accept-Encoding");
    expect(gunzipSync(response.rawPayload).equals(built.loader)).toBe(true);
  });

  it("happy: the hashed bundle is immutable for a year", async () => {
    const response = await t.app.inject({ method: "GET", url: `/widget/assets/${built.entry}` });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(built.bundle)).toBe(true);
    expect(response.headers).toMatchObject({
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "public, max-age=31536000, immutable",
      "access-control-allow-origin": "*",
    });
  });

  it("error: an unknown or traversing asset name is 404 in the API's error shape", async () => {
    for (const url of ["/widget/assets/app-OLDHASH.js", "/widget/assets/..%2Fwidget.js", "/widget/assets/..%2F..%2Fpackage.json", "/widget/assets/manifest.json", "/widget/assets/app.js.map"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code, url).toBe("not_found");
    }
  });
});

describe("a service started without the widget built", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite");
  });
  afterAll(() => t.close());

  it("error: logs one clear line at start, and /widget.js and the assets are 404 in the API's error shape", async () => {
    const directory = await mkdtemp(join(tmpdir(), "frontdesk-no-widget-"));
    const { logger, lines } = capturedLogger();
    const app = await buildApp({ ...t.services, metrics: createMetricsRegistry() }, { loggerInstance: logger, widgetBuildDirectory: directory });
    try {
      const warnings = lines.filter((line) => line.level === LOG_LEVELS.warn);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ directory });
      expect(warnings[0]!.msg).toBe(`the widget at ${directory} is not built: /widget.js answers 404 until \`npm run build\` builds packages/widget`);
      for (const url of ["/widget.js", "/widget/assets/app-ABC.js"]) {
        const response = await app.inject({ method: "GET", url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ error: { code: "not_found", message: "The widget is not built on this service (run `npm run build`)." } });
      }
      // The API itself still works.
      expect((await app.inject({ method: "GET", url: "/livez" })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
