import { afterAll, beforeAll, expect, it } from "vitest";
import { jobCatalog, type JobName } from "../../src/jobs/job-catalog.js";
import { startJobQueue } from "../../src/jobs/job-queue.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

interface StoredQueue {
  name: string;
  retry_limit: number;
  retry_delay: number;
  expire_seconds: number;
  updated_on: Date;
}

describeEachStore("the job queues' policies on %s", (kind) => {
  let store: TestDatabase;
  const queues = async () => {
    const { rows } = await store.db.query<StoredQueue>("SELECT name, retry_limit, retry_delay, expire_seconds, updated_on FROM pgboss.queue ORDER BY name");
    return new Map(rows.map((row) => [row.name, row]));
  };

  beforeAll(async () => {
    store = await createTestDatabase(kind);
  });
  afterAll(() => store.drop());

  it("happy: a start makes every job's queue; another with a new policy rewrites them; one with the same policy writes nothing", async () => {
    const names = (Object.keys(jobCatalog) as JobName[]).sort();
    await (await startJobQueue(store.db, { retry: { retryLimit: 3, retryDelaySeconds: 7, expireInSeconds: 120 } })).stop();
    const first = await queues();
    for (const name of names) expect(first.get(name), name).toMatchObject({ retry_limit: 3, retry_delay: 7, expire_seconds: 120 });

    await (await startJobQueue(store.db, { retry: { retryLimit: 2, retryDelaySeconds: 7, expireInSeconds: 120 } })).stop();
    const changed = await queues();
    for (const name of names) expect(changed.get(name), name).toMatchObject({ retry_limit: 2, retry_delay: 7, expire_seconds: 120 });

    await (await startJobQueue(store.db, { retry: { retryLimit: 2, retryDelaySeconds: 7, expireInSeconds: 120 } })).stop();
    const again = await queues();
    for (const name of names) expect(again.get(name)!.updated_on, name).toEqual(changed.get(name)!.updated_on);
  });

  it("happy: a queue missing from the store (a job added by an upgrade) is made at the next start", async () => {
    await store.db.query("SELECT pgboss.delete_queue('index-page')");
    expect((await queues()).has("index-page")).toBe(false);
    await (await startJobQueue(store.db, { retry: { retryLimit: 2, retryDelaySeconds: 7, expireInSeconds: 120 } })).stop();
    expect((await queues()).get("index-page")).toMatchObject({ retry_limit: 2, retry_delay: 7, expire_seconds: 120 });
  });
});
