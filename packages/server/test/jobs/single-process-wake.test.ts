import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/db/database.js";
import { startJobQueue, type JobQueue } from "../../src/jobs/job-queue.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

/** Resolves with what `handled` collected once it holds `count` items; rejects when that takes longer than `ms` (the workers were not woken). */
function waitFor<T>(handled: T[], count: number, ms: number): Promise<T[]> {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (handled.length >= count) resolve(handled);
      else if (Date.now() > deadline) reject(new Error(`only ${handled.length} of ${count} jobs ran: the sleeping workers were not woken`));
      else setTimeout(check, 20);
    };
    check();
  });
}

describe("a single-process store's job queue (PGlite)", () => {
  let store: TestDatabase;
  let db: Database;
  let jobs: JobQueue;
  const handled: string[] = [];

  beforeAll(async () => {
    store = await createTestDatabase("pglite");
    db = store.db;
    // Workers that poll only once a minute: a job runs within the test only if sending it woke them.
    jobs = await startJobQueue(db, { singleProcess: true, pollingIntervalSeconds: 60, retry: { retryLimit: 0 } });
    await jobs.work("index-source", 2, async (payload) => void handled.push(payload.sourceId));
    await jobs.work("index-page", 2, async (payload) => void handled.push(`${payload.sourceId}:${payload.documentId}`));
    // Let every worker make its first (empty) fetch and fall asleep.
    await new Promise((resolve) => setTimeout(resolve, 500));
  });
  afterAll(async () => {
    await jobs.stop();
    await store.drop();
  });

  it("happy: a job sent wakes its queue's sleeping workers", async () => {
    await jobs.send("index-source", { sourceId: "src_1" });
    expect(await waitFor(handled, 1, 10_000)).toEqual(["src_1"]);
  });

  it("happy: jobs sent together inside a transaction run once it commits", async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.transaction(async (tx) => {
      await jobs.sendMany("index-page", [{ sourceId: "src_2", documentId: 1 }, { sourceId: "src_2", documentId: 2 }], tx);
    });
    const all = await waitFor(handled, 3, 10_000);
    expect(all.slice(1).sort()).toEqual(["src_2:1", "src_2:2"]);
  });
});
