import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openPostgresDatabase } from "../../src/db/postgres-database.js";
import { adminPostgresUrl, createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";
import { describeNeeding } from "../support/test-legs.js";

describeEachStore("Database.ping (what /healthz asks) on %s", (kind) => {
  let store: TestDatabase;

  beforeAll(async () => {
    store = await createTestDatabase(kind);
  });

  afterAll(async () => {
    await store.drop();
  });

  it("happy: resolves while the store answers, and pings at once share one", async () => {
    await expect(store.db.ping()).resolves.toBeUndefined();
    await expect(Promise.all([store.db.ping(), store.db.ping(), store.db.ping()])).resolves.toEqual([undefined, undefined, undefined]);
  });
});

describeNeeding("postgres")("Database.ping on Postgres, apart from the pool", () => {
  let store: TestDatabase;

  beforeAll(async () => {
    store = await createTestDatabase("postgres");
  });

  afterAll(async () => {
    await store.drop();
  });

  it("happy: answers while every pooled connection is taken", async () => {
    const db = await openPostgresDatabase(store.url!, 1);
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const holding = db.transaction(async (tx) => {
      await tx.query("SELECT 1");
      await held;
    });
    try {
      const queued = db.query("SELECT 2 AS two");
      let queuedDone = false;
      void queued.then(() => (queuedDone = true));
      await expect(db.ping()).resolves.toBeUndefined();
      expect(queuedDone).toBe(false);
      release();
      await holding;
      expect((await queued).rows).toEqual([{ two: 2 }]);
    } finally {
      release();
      await db.close();
    }
  });

  it("error: rejects when its connection is cut, and connects again at the next ping", async () => {
    const db = await openPostgresDatabase(store.url!, 1);
    try {
      await db.ping();
      const admin = new pg.Client({ connectionString: adminPostgresUrl });
      await admin.connect();
      try {
        const database = new URL(store.url!).pathname.slice(1);
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [database]);
      } finally {
        await admin.end();
      }
      await expect(db.ping()).rejects.toThrow();
      await expect(db.ping()).resolves.toBeUndefined();
    } finally {
      await db.close();
    }
  });
});
