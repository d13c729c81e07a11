import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Fastify from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleAppRoutes, DEFAULT_CONSOLE_BUILD_DIRECTORY, loadConsoleBuild } from "../../src/console/console-app-routes.js";
import { registerErrorHandling } from "../../src/http/error-handler.js";
import { createTestApp, type TestApp } from "../support/test-app.js";

/** The files `npm run build` wrote (the suite's `pretest` builds them). */
async function builtConsole() {
  const manifest = JSON.parse(await readFile(join(DEFAULT_CONSOLE_BUILD_DIRECTORY, "manifest.json"), "utf8")) as { entry: string; stylesheet: string };
  return { ...manifest, script: await readFile(join(DEFAULT_CONSOLE_BUILD_DIRECTORY, "assets", manifest.entry)) };
}

describe("the console web app at /console", () => {
  let t: TestApp;
  let built: Awaited<ReturnType<typeof builtConsole>>;
  beforeAll(async () => {
    built = await builtConsole();
    t = await createTestApp("pglite", { FRONTDESK_PUBLIC_URL: "https://support.example.com", FRONTDESK_REALTIME_APP_KEY: "console-key" });
  });
  afterAll(() => t.close());

  it("happy: /console is the page, never cached without revalidation, naming the hashed bundle and the realtime server", async () => {
    const response = await t.app.inject({ method: "GET", url: "/console" });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "same-origin",
    });
    expect(response.body).toContain(`<script type="module" src="/console/assets/${built.entry}"></script>`);
    expect(response.body).toContain(`<link rel="stylesheet" href="/console/assets/${built.stylesheet}">`);
    const meta = /<meta name="frontdesk-realtime" content="([^"]*)">/.exec(response.body);
    expect(JSON.parse(meta![1]!.replace(/&quot;/g, '"').replace(/&amp;/g, "&"))).toEqual({ app_key: "console-key", host: "support.example.com", port: 443, scheme: "wss" });
  });

  it("happy: every client route under /console (a conversation, the set-password link) is the same page", async () => {
    const page = (await t.app.inject({ method: "GET", url: "/console" })).body;
    for (const url of ["/console/", "/console/inbox", "/console/inbox/cnv_123?filter=mine", "/console/set-password", "/console/settings/tokens"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toBe(page);
    }
  });

  it("security: a strict Content-Security-Policy: own scripts only (no inline, no eval), API and realtime connections only, frames of its own origin (the widget's preview), never framed", async () => {
    const response = await t.app.inject({ method: "GET", url: "/console/inbox" });
    const policy = String(response.headers["content-security-policy"]);
    const directives = Object.fromEntries(policy.split("; ").map((directive) => [directive.split(" ")[0], directive.split(" ").slice(1).join(" ")]));
    expect(directives).toEqual({
      "default-src": "'none'",
      "script-src": "'self'",
      "style-src": "'self'",
      "img-src": "'self' data:",
      "font-src": "'self'",
      "connect-src": "'self' wss://support.example.com:443",
      "frame-src": "'self'",
      "worker-src": "'self'",
      "base-uri": "'none'",
      "form-action": "'self'",
      "frame-ancestors": "'none'",
    });
    expect(policy).not.toMatch(/unsafe/);
    // The page has nothing inline for the policy to refuse: every script is a file, no style attribute or element.
    expect(response.body.match(/<script\b[^>]*>/g)).toEqual([`<script type="module" src="/console/assets/${built.entry}">`]);
    expect(response.body).not.toMatch(/<style|style=/);
  });

  it("happy: the Web Push service worker is served at /console/push-worker.js, revalidated, under a policy that allows it nothing", async () => {
    const response = await t.app.inject({ method: "GET", url: "/console/push-worker.js" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(response.headers["content-security-policy"]).toBe("default-src 'none'");
    expect(response.headers["service-worker-allowed"]).toBe("/console/");
    expect(response.body).toContain("notificationclick");
  });

  it("happy: a hashed asset is served immutable, gzipped when accepted, and 304 for its ETag", async () => {
    const response = await t.app.inject({ method: "GET", url: `/console/assets/${built.entry}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=31536000, immutable" });
    expect(response.rawPayload.equals(built.script)).toBe(true);
    const gzipped = await t.app.inject({ method: "GET", url: `/console/assets/${built.entry}`, headers: { "accept-encoding": "gzip, br" } });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.rawPayload).equals(built.script)).toBe(true);
    const again = await t.app.inject({ method: "GET", url: `/console/assets/${built.entry}`, headers: { "if-none-match": String(response.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const css = await t.app.inject({ method: "GET", url: `/console/assets/${built.stylesheet}` });
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
  });

  it("error: an unknown asset, a path below assets/ and the bare assets/ are 404 in the error shape, never the page", async () => {
    for (const url of ["/console/assets/app-UNKNOWN.js", "/console/assets/", "/console/assets/sub/app.js", "/console/assets/..%2Findex.html", "/console/assets/index.html"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toMatchObject({ error: { code: "not_found" } });
    }
  });

  it("error: without a build the console's pages and assets answer 404 saying how to build it", async () => {
    const build = loadConsoleBuild(t.services.config, "/nonexistent/console-dist");
    expect(build).toEqual({ ready: false, problem: expect.stringContaining("npm run build") });
    const bare = Fastify().withTypeProvider<ZodTypeProvider>();
    bare.decorate("services", t.services);
    bare.setValidatorCompiler(validatorCompiler);
    bare.setSerializerCompiler(serializerCompiler);
    registerErrorHandling(bare);
    await bare.register(consoleAppRoutes, { directory: "/nonexistent/console-dist" });
    try {
      for (const url of ["/console", "/console/inbox", `/console/assets/${built.entry}`]) {
        const response = await bare.inject({ method: "GET", url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json(), url).toEqual({ error: { code: "not_found", message: expect.stringContaining("npm run build") } });
      }
    } finally {
      await bare.close();
    }
  });
});
