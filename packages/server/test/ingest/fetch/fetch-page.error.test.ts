import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { describe, expect, test } from "vitest";
import { FetchError } from "../../../src/network/fetch-error.js";
import { html, openCrawler, redirect, rejectionOf, send, siteTest } from "./loopback-site.js";

describe("fetchPage errors", () => {
  siteTest("refuses a non-HTML file with not_html", async ({ site }) => {
    site.route("/doc.pdf", send(200, "%PDF-1.7", { "content-type": "application/pdf" }));
    const error = await rejectionOf(openCrawler().fetchPage(site.url("/doc.pdf")));

    expect(error).toBeInstanceOf(FetchError);
    expect(error).toMatchObject({ code: "not_html", transient: false });
  });

  siteTest("refuses a body without Content-Type that does not look like HTML", async ({ site }) => {
    site.route("/blob", send(200, "\u0000\u0001binary"));
    expect(await rejectionOf(openCrawler().fetchPage(site.url("/blob")))).toMatchObject({ code: "not_html" });
  });

  siteTest("refuses a page whose Content-Length is over the cap", async ({ site }) => {
    site.route("/big", html(`<p>${"x".repeat(5_000)}</p>`));
    const error = await rejectionOf(openCrawler({ maxPageBytes: 1_000 }).fetchPage(site.url("/big")));

    expect(error).toMatchObject({ code: "too_large", transient: false });
  });

  siteTest("aborts a streamed body as soon as it passes the cap", async ({ site }) => {
    let written = 0;
    const aborted = new Promise<boolean>((resolve) => {
      site.route("/endless", (_request, response) => {
        response.writeHead(200, { "content-type": "text/html" });
        const chunk = Buffer.alloc(16 * 1024, "a");
        const timer = setInterval(() => {
          written += chunk.length;
          response.write(chunk);
        }, 2);
        response.on("close", () => {
          clearInterval(timer);
          resolve(!response.writableFinished);
        });
      });
    });
    const cap = 64 * 1024;

    const error = await rejectionOf(openCrawler({ maxPageBytes: cap }).fetchPage(site.url("/endless")));

    expect(error).toMatchObject({ code: "too_large" });
    expect(await aborted).toBe(true);
    expect(written).toBeLessThan(100 * cap);
  });

  siteTest("caps the decoded size of a compressed page (no gzip bombs)", async ({ site }) => {
    const bomb = gzipSync(Buffer.alloc(2 * 1024 * 1024, " "));
    site.route("/bomb", send(200, bomb, { "content-type": "text/html", "content-encoding": "gzip" }));
    const error = await rejectionOf(openCrawler({ maxPageBytes: 64 * 1024 }).fetchPage(site.url("/bomb")));

    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(error).toMatchObject({ code: "too_large" });
  });

  siteTest("gives up on a page slower than the response timeout, as a transient failure", async ({ site }) => {
    site.route("/slow", (_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.write("<p>first bytes");
      const timer = setTimeout(() => response.end("</p>"), 10_000);
      response.on("close", () => clearTimeout(timer));
    });
    const error = await rejectionOf(openCrawler({ responseTimeoutMs: 300 }).fetchPage(site.url("/slow")));

    expect(error).toMatchObject({ code: "fetch_failed", transient: true });
    expect((error as Error).message).toContain("timed out");
  });

  siteTest("gives up when headers never come", async ({ site }) => {
    site.route("/silent", (_request, response) => {
      const timer = setTimeout(() => response.end(), 10_000);
      response.on("close", () => clearTimeout(timer));
    });
    const error = await rejectionOf(openCrawler({ responseTimeoutMs: 300 }).fetchPage(site.url("/silent")));

    expect(error).toMatchObject({ code: "fetch_failed", transient: true });
  });

  siteTest("stops after five redirects", async ({ site }) => {
    site.route("/loop/*", (request, response) => {
      const step = Number(request.url?.split("/").pop());
      redirect(`/loop/${step + 1}`)(request, response);
    });
    const error = await rejectionOf(openCrawler().fetchPage(site.url("/loop/0")));

    expect(error).toMatchObject({ code: "fetch_failed", transient: false });
    expect((error as Error).message).toContain("more than 5 redirects");
    expect(site.requests.filter((request) => request.path.startsWith("/loop/"))).toHaveLength(6);
  });

  siteTest("reports a 404 as http_status, not worth a retry", async ({ site }) => {
    const error = await rejectionOf(openCrawler().fetchPage(site.url("/missing")));

    expect(error).toMatchObject({ code: "http_status", status: 404, transient: false });
    expect((error as Error).message).toContain("404");
  });

  siteTest("reports 5xx and 429 as transient http_status", async ({ site }) => {
    site.route("/down", send(503, "busy"));
    site.route("/throttled", send(429, "slow down"));
    const crawler = openCrawler();

    expect(await rejectionOf(crawler.fetchPage(site.url("/down")))).toMatchObject({
      code: "http_status",
      status: 503,
      transient: true,
    });
    expect(await rejectionOf(crawler.fetchPage(site.url("/throttled")))).toMatchObject({ status: 429, transient: true });
  });

  test("reports a closed port as a transient fetch_failed", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));

    const error = await rejectionOf(openCrawler().fetchPage(`http://127.0.0.1:${port}/`));

    expect(error).toMatchObject({ code: "fetch_failed", transient: true });
  });

  siteTest("reports a connection reset mid-page as a transient fetch_failed", async ({ site }) => {
    site.route("/reset", (request) => request.socket.destroy());
    const error = await rejectionOf(openCrawler().fetchPage(site.url("/reset")));

    expect(error).toMatchObject({ code: "fetch_failed", transient: true });
  });

  test.each([
    "ftp://example.com/file",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "data:text/html,<p>x</p>",
    "not a url",
    "/relative/path",
  ])("refuses %s as invalid_url", async (url) => {
    expect(await rejectionOf(openCrawler().fetchPage(url))).toMatchObject({ code: "invalid_url" });
  });

  siteTest("refuses a redirect to a non-http scheme as invalid_url", async ({ site }) => {
    site.route("/to-file", redirect("file:///etc/passwd"));
    expect(await rejectionOf(openCrawler().fetchPage(site.url("/to-file")))).toMatchObject({ code: "invalid_url" });
  });
});
