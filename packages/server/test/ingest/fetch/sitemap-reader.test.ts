import { gzipSync } from "node:zlib";
import { describe, expect } from "vitest";
import { openCrawler, rejectionOf, send, siteTest } from "./loopback-site.js";
import type { LoopbackSite } from "./loopback-site.js";

const namespace = "http://www.sitemaps.org/schemas/sitemap/0.9";

function urlset(locs: string[]): string {
  const entries = locs.map((loc) => `  <url>\n    <loc>${loc}</loc>\n    <lastmod>2024-01-01</lastmod>\n  </url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${namespace}">\n${entries.join("\n")}\n</urlset>\n`;
}

function sitemapIndex(locs: string[]): string {
  const entries = locs.map((loc) => `  <sitemap><loc>${loc}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${namespace}">\n${entries.join("\n")}\n</sitemapindex>\n`;
}

const xml = (body: string | Buffer, contentType = "application/xml") => send(200, body, { "content-type": contentType });

function pages(site: LoopbackSite, from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, index) => site.url(`/page-${from + index}`));
}

describe("discoverSitemapUrls", () => {
  siteTest("reads a sitemap index pointing at gzip and plain sitemaps", async ({ site }) => {
    site.route("/sitemap.xml", xml(sitemapIndex([site.url("/sitemaps/blog"), site.url("/sitemaps/docs.xml")])));
    // gzip told by its magic bytes: no .gz in the name, a generic content type.
    site.route("/sitemaps/blog", xml(gzipSync(urlset(pages(site, 1, 3))), "application/octet-stream"));
    site.route("/sitemaps/docs.xml", xml(urlset([...pages(site, 3, 5), `${site.url("/page-1")}#top`]), "text/xml"));

    const discovery = await openCrawler().discoverSitemapUrls(site.url("/sitemap.xml"));

    expect(discovery).toEqual({
      urls: pages(site, 1, 5),
      sitemapsRead: 3,
      skippedForeignHost: 0,
      truncated: false,
      failures: [],
    });
  });

  siteTest("reads a gzip file served as application/x-gzip", async ({ site }) => {
    site.route("/sitemap.xml.gz", xml(gzipSync(urlset(pages(site, 1, 2))), "application/x-gzip"));
    const discovery = await openCrawler().discoverSitemapUrls(site.url("/sitemap.xml.gz"));

    expect(discovery.urls).toEqual(pages(site, 1, 2));
  });

  siteTest("drops URLs and nested sitemaps on other hosts", async ({ site }) => {
    site.route(
      "/sitemap.xml",
      xml(sitemapIndex([site.url("/own.xml"), "https://elsewhere.example/sitemap.xml", `http://localhost:${site.port}/x.xml`])),
    );
    site.route(
      "/own.xml",
      xml(urlset([site.url("/a"), "https://elsewhere.example/b", `http://sub.127.0.0.1.nip.io:${site.port}/c`, "ftp://x/y"])),
    );

    const discovery = await openCrawler().discoverSitemapUrls(site.url("/sitemap.xml"));

    expect(discovery.urls).toEqual([site.url("/a")]);
    expect(discovery.skippedForeignHost).toBe(4);
    expect(discovery.sitemapsRead).toBe(2);
  });

  siteTest("stops at the page cap and says so", async ({ site }) => {
    site.route("/sitemap.xml", xml(sitemapIndex([site.url("/one.xml"), site.url("/two.xml")])));
    site.route("/one.xml", xml(urlset(pages(site, 1, 8))));
    site.route("/two.xml", xml(urlset(pages(site, 9, 30))));

    const discovery = await openCrawler().discoverSitemapUrls(site.url("/sitemap.xml"), { maxPages: 10 });

    expect(discovery.urls).toEqual(pages(site, 1, 10));
    expect(discovery.truncated).toBe(true);
  });

  siteTest("stops at the per-file entry limit", async ({ site }) => {
    site.route("/sitemap.xml", xml(urlset(pages(site, 1, 20))));
    const discovery = await openCrawler().discoverSitemapUrls(site.url("/sitemap.xml"), { maxEntriesPerFile: 5 });

    expect(discovery.urls).toEqual(pages(site, 1, 5));
    expect(discovery.truncated).toBe(true);
  });

  siteTest("stops reading a file past the uncompressed size cap, plain or gzip", async ({ site }) => {
    const big = urlset(pages(site, 1, 2_000));
    site.route("/plain.xml", xml(big));
    site.route("/packed.xml.gz", xml(gzipSync(big), "application/gzip"));
    const crawler = openCrawler({ maxSitemapBytes: 20_000 });

    const plain = await crawler.discoverSitemapUrls(site.url("/plain.xml"));
    const packed = await crawler.discoverSitemapUrls(site.url("/packed.xml.gz"));

    expect(Buffer.byteLength(gzipSync(big))).toBeLessThan(20_000);
    for (const discovery of [plain, packed]) {
      expect(discovery.truncated).toBe(true);
      expect(discovery.urls.length).toBeGreaterThan(50);
      expect(discovery.urls.length).toBeLessThan(2_000);
    }
  });

  siteTest("limits how deep indexes nest and survives cycles", async ({ site }) => {
    site.route("/level-0.xml", xml(sitemapIndex([site.url("/level-1.xml"), site.url("/level-0.xml")])));
    site.route("/level-1.xml", xml(sitemapIndex([site.url("/level-2.xml"), site.url("/leaf-1.xml")])));
    site.route("/level-2.xml", xml(sitemapIndex([site.url("/leaf-2.xml")])));
    site.route("/leaf-1.xml", xml(urlset([site.url("/shallow")])));
    site.route("/leaf-2.xml", xml(urlset([site.url("/deep")])));

    const discovery = await openCrawler().discoverSitemapUrls(site.url("/level-0.xml"), { maxDepth: 2 });

    expect(discovery.urls).toEqual([site.url("/shallow")]);
    expect(discovery.truncated).toBe(true);
    expect(site.hits("/leaf-2.xml")).toBe(0);
    expect(site.hits("/level-0.xml")).toBe(1);
  });

  siteTest("reads prefixed elements, CDATA and entities", async ({ site }) => {
    const body = `<?xml version="1.0"?>
<sm:urlset xmlns:sm="${namespace}">
  <sm:url><sm:loc><![CDATA[${site.url("/a?x=1&y=2")}]]></sm:loc></sm:url>
  <sm:url><sm:loc>${site.url("/b?x=1&amp;y=2")}</sm:loc></sm:url>
</sm:urlset>`;
    site.route("/sitemap.xml", xml(body));
    const discovery = await openCrawler().discoverSitemapUrls(site.url("/sitemap.xml"));

    expect(discovery.urls).toEqual([site.url("/a?x=1&y=2"), site.url("/b?x=1&y=2")]);
  });

  siteTest("records a nested sitemap that fails and keeps the others", async ({ site }) => {
    site.route("/sitemap.xml", xml(sitemapIndex([site.url("/gone.xml"), site.url("/ok.xml")])));
    site.route("/ok.xml", xml(urlset([site.url("/ok")])));

    const discovery = await openCrawler().discoverSitemapUrls(site.url("/sitemap.xml"));

    expect(discovery.urls).toEqual([site.url("/ok")]);
    expect(discovery.failures).toEqual([
      { url: site.url("/gone.xml"), code: "http_status", message: expect.stringContaining("404") },
    ]);
  });

  siteTest("refuses a first file that is not a sitemap", async ({ site }) => {
    site.route("/html", send(200, "<html><body>Not found</body></html>", { "content-type": "text/html" }));
    site.route("/feed.xml", xml('<?xml version="1.0"?><rss version="2.0"><channel/></rss>'));
    const crawler = openCrawler();

    expect(await rejectionOf(crawler.discoverSitemapUrls(site.url("/html")))).toMatchObject({ code: "invalid_sitemap" });
    expect(await rejectionOf(crawler.discoverSitemapUrls(site.url("/feed.xml")))).toMatchObject({
      code: "invalid_sitemap",
    });
    expect(await rejectionOf(crawler.discoverSitemapUrls(site.url("/missing.xml")))).toMatchObject({
      code: "http_status",
      status: 404,
    });
  });

  siteTest("goes through the same guard and robots.txt as pages", async ({ site }) => {
    site.route("/robots.txt", send(200, "User-agent: *\nDisallow: /private/\n", { "content-type": "text/plain" }));
    site.route("/private/sitemap.xml", xml(urlset([site.url("/a")])));

    expect(await rejectionOf(openCrawler().discoverSitemapUrls(site.url("/private/sitemap.xml")))).toMatchObject({
      code: "robots_disallowed",
    });
    expect(
      await rejectionOf(openCrawler({ allowPrivateNetworks: false }).discoverSitemapUrls(site.url("/sitemap.xml"))),
    ).toMatchObject({ code: "blocked_address" });
    expect(site.hits("/private/sitemap.xml")).toBe(0);
  });
});
