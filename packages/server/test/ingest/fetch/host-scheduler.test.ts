import { describe, expect, test } from "vitest";
import { createHostScheduler } from "../../../src/ingest/fetch/host-scheduler.js";
import { html, openCrawler, send, siteTest } from "./loopback-site.js";

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

describe("host scheduler", () => {
  test("runs at most the configured number of tasks per host, hosts independently", async () => {
    const scheduler = createHostScheduler({ maxConcurrentPerHost: 2 });
    const running = new Map<string, number>();
    const peak = new Map<string, number>();
    const gates = Array.from({ length: 8 }, () => deferred());
    const started: number[] = [];

    const runs = gates.map((gate, index) => {
      const host = index % 2 === 0 ? "a.test" : "b.test";
      return scheduler.run(host, 0, async () => {
        started.push(index);
        running.set(host, (running.get(host) ?? 0) + 1);
        peak.set(host, Math.max(peak.get(host) ?? 0, running.get(host) ?? 0));
        await gate.promise;
        running.set(host, (running.get(host) ?? 0) - 1);
        return index;
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started.sort()).toEqual([0, 1, 2, 3]);
    for (const gate of gates) gate.resolve();

    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(peak.get("a.test")).toBe(2);
    expect(peak.get("b.test")).toBe(2);
  });

  test("a failing task frees its slot", async () => {
    const scheduler = createHostScheduler({ maxConcurrentPerHost: 1 });
    const failing = scheduler.run("a.test", 0, async () => {
      throw new Error("boom");
    });
    await expect(failing).rejects.toThrow("boom");
    expect(await scheduler.run("a.test", 0, async () => "next")).toBe("next");
  });

  test("spaces task starts on one host by the crawl delay", async () => {
    const scheduler = createHostScheduler({ maxConcurrentPerHost: 2 });
    const starts: number[] = [];
    await Promise.all(
      [1, 2, 3].map(() =>
        scheduler.run("a.test", 100, async () => {
          starts.push(performance.now());
        }),
      ),
    );
    const [first = 0, second = 0, third = 0] = starts;
    expect(second - first).toBeGreaterThanOrEqual(90);
    expect(third - second).toBeGreaterThanOrEqual(90);
  });
});

describe("politeness against a real site", () => {
  siteTest("never has more than two requests in flight on one host", async ({ site }) => {
    site.route("/slow/*", (_request, response) => {
      setTimeout(() => html("<p>slow</p>")(_request, response), 50);
    });
    const crawler = openCrawler();

    await Promise.all(Array.from({ length: 8 }, (_, n) => crawler.fetchPage(site.url(`/slow/${n}`))));

    expect(site.hits("/robots.txt")).toBe(1);
    expect(site.requests.filter((request) => request.path.startsWith("/slow/"))).toHaveLength(8);
    expect(site.maxInFlight()).toBe(2);
  });

  siteTest("honours a lower per-host limit", async ({ site }) => {
    site.route("/slow/*", (_request, response) => {
      setTimeout(() => html("<p>slow</p>")(_request, response), 30);
    });
    const crawler = openCrawler({ maxConcurrentPerHost: 1 });

    await Promise.all(Array.from({ length: 4 }, (_, n) => crawler.fetchPage(site.url(`/slow/${n}`))));

    expect(site.maxInFlight()).toBe(1);
  });

  siteTest("spaces requests to one host by robots.txt Crawl-delay", async ({ site }) => {
    site.route("/robots.txt", send(200, "User-agent: *\nCrawl-delay: 0.3\n", { "content-type": "text/plain" }));
    site.route("/page/*", html("<p>page</p>"));
    const crawler = openCrawler();

    await Promise.all([1, 2, 3].map((n) => crawler.fetchPage(site.url(`/page/${n}`))));

    const starts = site.requests.filter((request) => request.path.startsWith("/page/")).map((request) => request.at);
    const [first = 0, second = 0, third = 0] = starts;
    expect(second - first).toBeGreaterThanOrEqual(250);
    expect(third - second).toBeGreaterThanOrEqual(250);
  });
});
