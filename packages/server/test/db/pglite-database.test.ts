import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database, Queryable } from "../../src/db/database.js";
import { openPgliteDatabase, PgliteError } from "../../src/db/pglite-database.js";
import { compiledWorkerUrl } from "../support/compiled-worker.js";

describe("PGlite in its worker thread", () => {
  let db: Database;

  beforeAll(async () => {
    db = await openPgliteDatabase(null, { workerUrl: compiledWorkerUrl("db/pglite-worker.js") });
    await db.exec(`CREATE EXTENSION IF NOT EXISTS vector`);
    await db.exec(`CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL, added timestamptz NOT NULL DEFAULT now(), tags text[], embedding vector(3))`);
  });

  afterAll(async () => {
    await db.close();
  });

  it("happy: answers queries with typed values (numbers, dates, arrays, pgvector) and runs multi-statement scripts", async () => {
    await db.query(`INSERT INTO items (id, name, tags, embedding) VALUES ($1, $2, $3, $4)`, [1, "lamp", "{a,b}", "[1,0,0]"]);
    const { rows } = await db.query<{ id: number; name: string; added: Date; tags: string[]; distance: number }>(
      `SELECT id, name, added, tags, embedding <=> '[0,1,0]' AS distance FROM items WHERE id = $1`,
      [1],
    );
    expect(rows).toEqual([{ id: 1, name: "lamp", added: expect.any(Date), tags: ["a", "b"], distance: 1 }]);
    expect(await db.exec(`SELECT 1 AS one; SELECT 2 AS two`)).toEqual([{ two: 2 }]);
  });

  it("happy: transactions begun in the same tick, and those woken by one ending, each run in a transaction of their own", async () => {
    const txid = (tx: Queryable) => tx.query<{ id: string }>(`SELECT txid_current()::text AS id`).then((result) => result.rows[0]!.id);
    const held = db.transaction(async (tx) => {
      const id = await txid(tx);
      await new Promise((resolve) => setTimeout(resolve, 20));
      return id;
    });
    // Five begun in one tick while one is open (all wake when it ends), and five more with none open after them.
    const waiting = Array.from({ length: 5 }, () => db.transaction(txid));
    const first = await held;
    const sameTick = await Promise.all(Array.from({ length: 5 }, () => db.transaction(txid)));
    const ids = [first, ...(await Promise.all(waiting)), ...sameTick];
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("error: a failing statement rejects with Postgres's message and fields, and the next one runs normally", async () => {
    const duplicate = await db.query(`INSERT INTO items (id, name) VALUES (1, 'again')`).catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(PgliteError);
    expect((duplicate as PgliteError).message).toMatch(/duplicate key value violates unique constraint "items_pkey"/);
    expect((duplicate as PgliteError).code).toBe("23505");
    const syntax = await db.query(`SELEC 1`).catch((error: unknown) => error);
    expect((syntax as PgliteError).code).toBe("42601");
    expect((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM items`)).rows).toEqual([{ n: 1 }]);
  });

  it("happy: a statement sent from outside an open transaction waits for it instead of running inside it", async () => {
    let inside!: () => void;
    const holding = new Promise<void>((resolve) => (inside = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query(`INSERT INTO items (id, name) VALUES (2, 'desk')`);
      inside();
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error("changed my mind");
    });
    await holding;
    // Sent while the transaction is open: had it run inside, it would count the uncommitted row.
    const outside = db.query<{ n: number }>(`SELECT count(*)::int AS n FROM items`);
    await expect(transaction).rejects.toThrow("changed my mind");
    expect((await outside).rows).toEqual([{ n: 1 }]);

    const committed = await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO items (id, name) VALUES (3, 'chair')`);
      return (await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM items`)).rows[0]!.n;
    });
    expect(committed).toBe(2);
    expect((await db.query<{ names: string[] }>(`SELECT array_agg(name ORDER BY id) AS names FROM items`)).rows[0]!.names).toEqual(["lamp", "chair"]);
  });

  it("happy: the event loop stays free while a statement runs", async () => {
    let finished = false;
    const slow = db.query(`SELECT pg_sleep(0.4)`).then(() => {
      finished = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finished).toBe(false);
    await slow;
    expect(finished).toBe(true);
  });

  it("error: after close, statements reject with a clear error", async () => {
    const other = await openPgliteDatabase(null, { workerUrl: compiledWorkerUrl("db/pglite-worker.js") });
    await other.close();
    await expect(other.query(`SELECT 1`)).rejects.toThrow(/The PGlite worker stopped/);
  });
});
