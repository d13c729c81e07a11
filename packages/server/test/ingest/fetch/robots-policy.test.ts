import { describe, expect, test } from "vitest";
import { resolveCrawlerSettings } from "../../../src/ingest/fetch/crawler-settings.js";
import { html, openCrawler, redirect, rejectionOf, send, siteTest } from "./loopback-site.js";

const robots = (text: string) => send(200, text, { "content-type": "text/plain" });

describe("robots.txt", () => {
  siteTest("a disallowed path is refused while others are fetched", async ({ site }) => {
    site.route("/robots.txt", robots("User-agent: *\nDisallow: /private\n"));
    site.route("/private/page", html("<p>secret</p>"));
    site.route("/public", html("<p>public</p>"));
    const crawler = openCrawler();

    const error = await rejectionOf(crawler.fetchPage(site.url("/private/page")));
    const page = await crawler.fetchPage(site.url("/public"));

    expect(error).toMatchObject({ code: "robots_disallowed", transient: false });
    expect(page.body).toBe("<p>public</p>");
    expect(site.hits("/private/page")).toBe(0);
    expect(site.hits("/robots.txt")).toBe(1);
  });

  siteTest("the group naming FrontdeskBot wins over the * group", async ({ site }) => {
    site.route(
      "/robots.txt",
      robots("User-agent: *\nDisallow: /\n\nUser-agent: FrontdeskBot\nDisallow: /drafts/\nAllow: /\n"),
    );
    site.route("/docs", html("<p>docs</p>"));
    const crawler = openCrawler();

    expect((await crawler.fetchPage(site.url("/docs"))).body).toBe("<p>docs</p>");
    expect(await rejectionOf(crawler.fetchPage(site.url("/drafts/x")))).toMatchObject({ code: "robots_disallowed" });
  });

  siteTest("a 404 robots.txt allows everything", async ({ site }) => {
    site.route("/anything", html("<p>ok</p>"));
    const page = await openCrawler().fetchPage(site.url("/anything"));

    expect(page.status).toBe(200);
    expect(site.hits("/robots.txt")).toBe(1);
  });

  siteTest("a 500 robots.txt disallows everything, as a transient refusal", async ({ site }) => {
    site.route("/robots.txt", send(500, "oops"));
    site.route("/anything", html("<p>ok</p>"));
    const error = await rejectionOf(openCrawler().fetchPage(site.url("/anything")));

    expect(error).toMatchObject({ code: "robots_disallowed", transient: true });
    expect(site.hits("/anything")).toBe(0);
  });

  siteTest("a robots.txt that cannot be fetched stops the crawl with the network error", async ({ site }) => {
    site.route("/robots.txt", (request) => request.socket.destroy());
    site.route("/anything", html("<p>ok</p>"));
    const error = await rejectionOf(openCrawler().fetchPage(site.url("/anything")));

    expect(error).toMatchObject({ code: "fetch_failed", transient: true });
    expect(site.hits("/anything")).toBe(0);
  });

  siteTest("robots.txt redirects are followed", async ({ site }) => {
    site.route("/robots.txt", redirect("/rules/robots-v2.txt", 301));
    site.route("/rules/robots-v2.txt", robots("User-agent: *\nDisallow: /hidden\n"));
    const error = await rejectionOf(openCrawler().fetchPage(site.url("/hidden")));

    expect(error).toMatchObject({ code: "robots_disallowed" });
  });

  siteTest("a redirect to a disallowed path is refused before it is fetched", async ({ site }) => {
    site.route("/robots.txt", robots("User-agent: *\nDisallow: /private\n"));
    site.route("/go", redirect("/private/secret"));
    site.route("/private/secret", html("<p>secret</p>"));
    const error = await rejectionOf(openCrawler().fetchPage(site.url("/go")));

    expect(error).toMatchObject({ code: "robots_disallowed" });
    expect(site.hits("/private/secret")).toBe(0);
  });

  siteTest("the cache is kept for its TTL and refreshed after", async ({ site }) => {
    let rules = "User-agent: *\nDisallow: /later\n";
    site.route("/robots.txt", (request, response) => robots(rules)(request, response));
    site.route("/later", html("<p>later</p>"));
    site.route("/now", html("<p>now</p>"));
    let clock = 1_000_000;
    const crawler = openCrawler({ robotsCacheTtlMs: 60_000, now: () => clock });

    await crawler.fetchPage(site.url("/now"));
    rules = "User-agent: *\nDisallow:\n";
    clock += 59_000;
    const stillCached = await rejectionOf(crawler.fetchPage(site.url("/later")));
    clock += 2_000;
    const refreshed = await crawler.fetchPage(site.url("/later"));

    expect(stillCached).toMatchObject({ code: "robots_disallowed" });
    expect(refreshed.body).toBe("<p>later</p>");
    expect(site.hits("/robots.txt")).toBe(2);
  });

  siteTest("an unreachable robots.txt is retried after the shorter unreachable TTL", async ({ site }) => {
    let status = 503;
    site.route("/robots.txt", (request, response) => send(status, "")(request, response));
    site.route("/page", html("<p>page</p>"));
    let clock = 0;
    const crawler = openCrawler({ robotsCacheTtlMs: 3_600_000, robotsUnreachableTtlMs: 60_000, now: () => clock });

    const first = await rejectionOf(crawler.fetchPage(site.url("/page")));
    status = 404;
    clock += 30_000;
    const second = await rejectionOf(crawler.fetchPage(site.url("/page")));
    clock += 31_000;
    const third = await crawler.fetchPage(site.url("/page"));

    expect(first).toMatchObject({ code: "robots_disallowed", transient: true });
    expect(second).toMatchObject({ code: "robots_disallowed", transient: true });
    expect(third.body).toBe("<p>page</p>");
    expect(site.hits("/robots.txt")).toBe(2);
  });

  siteTest("concurrent fetches on a new origin share one robots.txt request", async ({ site }) => {
    site.route("/p/*", html("<p>p</p>"));
    const crawler = openCrawler();

    await Promise.all([1, 2, 3, 4].map((n) => crawler.fetchPage(site.url(`/p/${n}`))));

    expect(site.hits("/robots.txt")).toBe(1);
  });

  test("the cache TTL is clamped to 24 hours", () => {
    expect(resolveCrawlerSettings({ robotsCacheTtlMs: 48 * 3_600_000 }).robotsCacheTtlMs).toBe(24 * 3_600_000);
  });
});
