import { describe, expect, it } from "vitest";
import { IngestProgressLog } from "../../src/ingest/ingest-progress-log.js";
import type { SitemapProgress } from "../../src/ingest/refresh-sitemap-progress.js";
import { measuredJobHandler } from "../../src/jobs/measured-job-handler.js";
import type { JobOutcome } from "../../src/observability/ingest-metrics.js";
import { capturedLogger } from "../support/captured-log.js";

const progressAt = (found: number, processed: number, failed = 0): SitemapProgress => ({
  counts: { found, pending: found - processed, indexed: processed - failed, failed },
  state: processed < found ? "pending" : "indexed",
});

describe("a sitemap's progress lines", () => {
  it("happy: 5,000 pages indexed quickly log ten progress lines and one end, not a line per page", () => {
    const { logger, lines } = capturedLogger();
    let now = 0;
    const log = new IngestProgressLog(logger, { now: () => now });
    log.sitemapRead("src_big", { pagesFound: 5000, truncated: false, skippedForeignHost: 0 });
    for (let processed = 1; processed <= 5000; processed += 1) {
      now += 10; // 100 pages a second: the tenths come before the 5-second cadence
      log.sitemapProgress("src_big", progressAt(5000, processed));
    }
    const progress = lines.filter((line) => line.msg === "sitemap progress");
    expect(progress.map((line) => line.pagesIndexed)).toEqual([500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4500]);
    expect(progress[0]).toMatchObject({ sourceId: "src_big", pagesFound: 5000, pagesPending: 4500, percent: 10 });
    expect(lines.filter((line) => line.msg === "source indexed")).toEqual([
      expect.objectContaining({ sourceId: "src_big", kind: "sitemap", pagesFound: 5000, pagesIndexed: 5000, pagesFailed: 0 }),
    ]);
  });

  it("happy: a slow sitemap still logs every 5 seconds while pages are indexed, and nothing while none is", () => {
    const { logger, lines } = capturedLogger();
    let now = 0;
    const log = new IngestProgressLog(logger, { now: () => now });
    log.sitemapRead("src_slow", { pagesFound: 5000, truncated: false, skippedForeignHost: 0 });
    for (let processed = 1; processed <= 30; processed += 1) {
      now += 1_000; // a page a second
      log.sitemapProgress("src_slow", progressAt(5000, processed));
    }
    expect(lines.filter((line) => line.msg === "sitemap progress").map((line) => line.pagesIndexed)).toEqual([5, 10, 15, 20, 25, 30]);
    now += 60_000;
    log.sitemapProgress("src_slow", progressAt(5000, 30));
    expect(lines.filter((line) => line.msg === "sitemap progress")).toHaveLength(6);
  });

  it("happy: the end is logged once when the last pages finish together, and again on the next sync", () => {
    const { logger, lines } = capturedLogger();
    const log = new IngestProgressLog(logger);
    log.sitemapProgress("src_s", progressAt(3, 3, 1));
    log.sitemapProgress("src_s", progressAt(3, 3, 1));
    expect(lines.filter((line) => line.msg === "source indexed")).toHaveLength(1);
    log.sitemapProgress("src_s", progressAt(3, 1));
    log.sitemapProgress("src_s", { counts: { found: 3, pending: 0, indexed: 0, failed: 3 }, state: "failed" });
    expect(lines.filter((line) => line.msg === "source failed")).toEqual([expect.objectContaining({ code: "all_pages_failed", pagesFailed: 3 })]);
  });
});

describe("job attempts counted by outcome", () => {
  const observed = () => {
    const outcomes: JobOutcome[] = [];
    return { outcomes, observer: { jobStarted: () => (outcome: JobOutcome) => void outcomes.push(outcome) } };
  };

  it("happy: a handler that returns is completed", async () => {
    const { outcomes, observer } = observed();
    await measuredJobHandler(observer, "index-source", async () => undefined)({ sourceId: "src_1" }, { id: "j1", isLastAttempt: false });
    expect(outcomes).toEqual(["completed"]);
  });

  it("error: a handler that throws is retried, or failed on its last attempt; the error still reaches the queue", async () => {
    const { outcomes, observer } = observed();
    const handler = measuredJobHandler(observer, "index-page", async () => {
      throw new Error("store went away");
    });
    await expect(handler({ sourceId: "src_1", documentId: 1 }, { id: "j1", isLastAttempt: false })).rejects.toThrow("store went away");
    await expect(handler({ sourceId: "src_1", documentId: 1 }, { id: "j1", isLastAttempt: true })).rejects.toThrow("store went away");
    expect(outcomes).toEqual(["retried", "failed"]);
  });
});
