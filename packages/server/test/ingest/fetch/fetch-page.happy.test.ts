import { gzipSync } from "node:zlib";
import { describe, expect } from "vitest";
import { html, openCrawler, redirect, send, siteTest } from "./loopback-site.js";

describe("fetchPage", () => {
  siteTest("fetches an HTML page as UTF-8 text", async ({ site }) => {
    site.route("/", html("<html><body><p>Café au lait</p></body></html>"));
    const crawler = openCrawler();

    const page = await crawler.fetchPage(`${site.url("/")}#section`);

    expect(page).toEqual({
      url: site.url("/"),
      status: 200,
      contentType: "text/html",
      charset: "utf-8",
      body: "<html><body><p>Café au lait</p></body></html>",
      bytes: Buffer.byteLength("<html><body><p>Café au lait</p></body></html>"),
      redirects: 0,
      etag: null,
      lastModified: null,
    });
    expect(site.requests.find((request) => request.path === "/")?.userAgent).toBe(
      "FrontdeskBot/0.1 (+https://github.com/frontdesk/frontdesk)",
    );
  });

  siteTest("honours the charset of the Content-Type header", async ({ site }) => {
    // "Crème brûlée" in windows-1252: single bytes 0xE8 and 0xFB, invalid as UTF-8.
    site.route("/", html(Buffer.from("<p>Crème brûlée</p>", "latin1"), "text/html; charset=windows-1252"));
    const page = await openCrawler().fetchPage(site.url("/"));

    expect(page.charset).toBe("windows-1252");
    expect(page.body).toBe("<p>Crème brûlée</p>");
  });

  siteTest("sniffs <meta charset> when the header has none", async ({ site }) => {
    const body = Buffer.concat([
      Buffer.from('<html><head><meta charset="windows-1252"><title>x</title></head><body>'),
      Buffer.from([0x93, 0x43, 0x61, 0x66, 0xe9, 0x94]), // “Café” with curly quotes
      Buffer.from("</body></html>"),
    ]);
    site.route("/", html(body, "text/html"));
    const page = await openCrawler().fetchPage(site.url("/"));

    expect(page.charset).toBe("windows-1252");
    expect(page.body).toContain("\u201cCafé\u201d");
  });

  siteTest("sniffs <meta http-equiv> with a multi-byte charset", async ({ site }) => {
    const body = Buffer.concat([
      Buffer.from('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><p>'),
      Buffer.from([0x93, 0xfa, 0x96, 0x7b]), // 日本 in Shift_JIS
      Buffer.from("</p></html>"),
    ]);
    site.route("/", html(body, "text/html"));
    const page = await openCrawler().fetchPage(site.url("/"));

    expect(page.charset).toBe("shift_jis");
    expect(page.body).toContain("<p>日本</p>");
  });

  siteTest("prefers the header charset over a contradicting meta tag", async ({ site }) => {
    site.route("/", html('<meta charset="windows-1252"><p>naïve</p>', "text/html; charset=utf-8"));
    const page = await openCrawler().fetchPage(site.url("/"));

    expect(page.charset).toBe("utf-8");
    expect(page.body).toContain("naïve");
  });

  siteTest("fetches text/plain and application/xhtml+xml", async ({ site }) => {
    site.route("/notes.txt", html("plain <b>text</b>", "text/plain"));
    site.route("/page.xhtml", html('<html xmlns="http://www.w3.org/1999/xhtml"/>', "application/xhtml+xml"));
    const crawler = openCrawler();

    const text = await crawler.fetchPage(site.url("/notes.txt"));
    const xhtml = await crawler.fetchPage(site.url("/page.xhtml"));

    expect(text).toMatchObject({ contentType: "text/plain", charset: "utf-8", body: "plain <b>text</b>" });
    expect(xhtml.contentType).toBe("application/xhtml+xml");
  });

  siteTest("takes a page without Content-Type when it plainly starts as HTML", async ({ site }) => {
    site.route("/", send(200, "\n  <!DOCTYPE html><html><p>hi</p></html>"));
    const page = await openCrawler().fetchPage(site.url("/"));

    expect(page.contentType).toBe("text/html");
  });

  siteTest("undoes a gzip Content-Encoding", async ({ site }) => {
    const body = gzipSync(Buffer.from("<p>compressed</p>"));
    site.route("/", send(200, body, { "content-type": "text/html", "content-encoding": "gzip" }));
    const page = await openCrawler().fetchPage(site.url("/"));

    expect(page.body).toBe("<p>compressed</p>");
    expect(page.bytes).toBe("<p>compressed</p>".length);
  });

  siteTest("follows a chain of redirects within the limit", async ({ site }) => {
    site.route("/start", redirect("/hop-1", 301));
    site.route("/hop-1", redirect(site.url("/hop-2"), 302));
    site.route("/hop-2", redirect("hop-3", 307));
    site.route("/hop-3", redirect("/hop-4?x=1", 308));
    site.route("/hop-4", redirect("/final", 303));
    site.route("/final", html("<p>arrived</p>"));

    const page = await openCrawler().fetchPage(site.url("/start"));

    expect(page).toMatchObject({ url: site.url("/final"), redirects: 5, body: "<p>arrived</p>" });
  });

  siteTest("sends a configured User-Agent", async ({ site }) => {
    site.route("/", html("<p>hi</p>"));
    await openCrawler({ userAgent: "TestBot/9" }).fetchPage(site.url("/"));

    expect(site.requests.map((request) => request.userAgent)).toEqual(["TestBot/9", "TestBot/9"]);
  });
});

describe("revalidatePage", () => {
  siteTest("sends the stored validators and reads a 304 as not modified; a changed page comes back with its new ones", async ({ site }) => {
    const seen: { ifNoneMatch: string | undefined; ifModifiedSince: string | undefined }[] = [];
    let etag = '"v1"';
    site.route("/page", (request, response) => {
      seen.push({ ifNoneMatch: request.headers["if-none-match"], ifModifiedSince: request.headers["if-modified-since"] });
      if (request.headers["if-none-match"] === etag) {
        response.writeHead(304, { etag });
        return void response.end();
      }
      response.writeHead(200, { "content-type": "text/html", etag, "last-modified": "Thu, 01 Jan 2026 00:00:00 GMT" });
      response.end(`<p>${etag}</p>`);
    });
    const crawler = openCrawler();
    const first = await crawler.revalidatePage(site.url("/page"), { etag: null, lastModified: null });
    expect(first).toMatchObject({ kind: "fetched", page: { etag: '"v1"', lastModified: "Thu, 01 Jan 2026 00:00:00 GMT" } });
    const again = await crawler.revalidatePage(site.url("/page"), { etag: '"v1"', lastModified: "Thu, 01 Jan 2026 00:00:00 GMT" });
    expect(again).toEqual({ kind: "not_modified" });
    etag = '"v2"';
    const changed = await crawler.revalidatePage(site.url("/page"), { etag: '"v1"', lastModified: null });
    expect(changed).toMatchObject({ kind: "fetched", page: { body: '<p>"v2"</p>', etag: '"v2"' } });
    expect(seen).toEqual([
      { ifNoneMatch: undefined, ifModifiedSince: undefined },
      { ifNoneMatch: '"v1"', ifModifiedSince: "Thu, 01 Jan 2026 00:00:00 GMT" },
      { ifNoneMatch: '"v1"', ifModifiedSince: undefined },
    ]);
  });
});
