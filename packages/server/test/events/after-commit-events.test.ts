import { afterAll, beforeAll, expect, it } from "vitest";
import { createDomainEvents } from "../../src/events/domain-events.js";
import type { FrontdeskEvent } from "../../src/events/frontdesk-events.js";
import { publishBusEventsOf } from "../../src/realtime/bus-events-of-domain-events.js";
import { createInProcessEventBus, type BusEvent } from "../../src/realtime/event-bus.js";
import { capturedLogger, LOG_LEVELS } from "../support/captured-log.js";
import { createTestDatabase, describeEachStore, type TestDatabase } from "../support/test-database.js";

const agentChanged = (agentId: string): FrontdeskEvent => ({ type: "agent.changed", workspaceId: "ws_1", agentId, published: true, updatedAt: "2026-01-01T00:00:00.000Z" });

describeEachStore("domain events after the commit on %s", (kind) => {
  let store: TestDatabase;

  beforeAll(async () => {
    store = await createTestDatabase(kind);
    await store.db.exec(`CREATE TABLE after_commit_probe (id text PRIMARY KEY)`);
  });

  afterAll(async () => {
    await store.drop();
  });

  /** A dispatcher whose after-commit subscriber reads the probe's row of the event's agent from the store (not the transaction), and the bus. */
  function dispatcher() {
    const bus = createInProcessEventBus();
    const published: BusEvent[] = [];
    bus.subscribe((event) => published.push(event));
    const seen: { agentId: string; rowVisible: boolean }[] = [];
    const inTransaction: string[] = [];
    const events = createDomainEvents<FrontdeskEvent>({
      inTransaction: [
        async (_tx, event) => {
          if (event.type === "agent.changed") inTransaction.push(event.agentId);
        },
      ],
      afterCommit: [
        async (event) => {
          if (event.type !== "agent.changed") return;
          const { rows } = await store.db.query(`SELECT id FROM after_commit_probe WHERE id = $1`, [event.agentId]);
          seen.push({ agentId: event.agentId, rowVisible: rows.length === 1 });
        },
        publishBusEventsOf(bus),
      ],
    });
    return { events, published, seen, inTransaction };
  }

  it("happy: raised in a transaction, the after-commit subscribers wait for the commit, then see the committed row, before transaction() resolves", async () => {
    const { events, published, seen } = dispatcher();
    await store.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO after_commit_probe (id) VALUES ($1)`, ["ag_committed"]);
      await events.raise(tx, agentChanged("ag_committed"));
      // Raised, not yet committed: nothing heard of it.
      expect(seen).toEqual([]);
      expect(published).toEqual([]);
    });
    expect(seen).toEqual([{ agentId: "ag_committed", rowVisible: true }]);
    expect(published).toEqual([{ type: "agent.updated", workspaceId: "ws_1", agentId: "ag_committed", published: true, updatedAt: "2026-01-01T00:00:00.000Z" }]);
  });

  it("error: raised in a transaction that rolls back, nothing runs after it and nothing is published (the in-transaction subscriber ran in it)", async () => {
    const { events, published, seen, inTransaction } = dispatcher();
    await expect(
      store.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO after_commit_probe (id) VALUES ($1)`, ["ag_rolled_back"]);
        await events.raise(tx, agentChanged("ag_rolled_back"));
        throw new Error("the change fails after raising");
      }),
    ).rejects.toThrow("the change fails after raising");
    expect(inTransaction).toEqual(["ag_rolled_back"]);
    expect(seen).toEqual([]);
    expect(published).toEqual([]);
    expect((await store.db.query(`SELECT id FROM after_commit_probe WHERE id = $1`, ["ag_rolled_back"])).rows).toEqual([]);
  });

  it("error: a commit the store refuses (a deferred constraint) runs nothing after it", async () => {
    await store.db.exec(`CREATE TABLE after_commit_deferred (id text PRIMARY KEY, other text REFERENCES after_commit_probe (id) DEFERRABLE INITIALLY DEFERRED)`);
    const { events, published } = dispatcher();
    await expect(
      store.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO after_commit_deferred (id, other) VALUES ('d1', 'no_such_probe')`);
        await events.raise(tx, agentChanged("ag_refused"));
      }),
    ).rejects.toThrow();
    expect(published).toEqual([]);
  });

  it("happy: raised on the store itself (a change of one statement, committed by now), the after-commit subscribers run at once", async () => {
    const { events, published, seen } = dispatcher();
    await store.db.query(`INSERT INTO after_commit_probe (id) VALUES ($1)`, ["ag_single"]);
    await events.raise(store.db, agentChanged("ag_single"));
    expect(seen).toEqual([{ agentId: "ag_single", rowVisible: true }]);
    expect(published.map((event) => event.type)).toEqual(["agent.updated"]);
  });

  it("happy: events keep the order they were raised in, across a transaction's raises", async () => {
    const { events, published } = dispatcher();
    await store.db.transaction(async (tx) => {
      for (const agentId of ["ag_1", "ag_2", "ag_3"]) await events.raise(tx, agentChanged(agentId));
    });
    expect(published.map((event) => (event.type === "agent.updated" ? event.agentId : null))).toEqual(["ag_1", "ag_2", "ag_3"]);
  });

  it("error: an after-commit subscriber that throws is logged, the change stands and the next subscribers still run", async () => {
    const { logger, lines } = capturedLogger();
    const bus = createInProcessEventBus();
    const published: BusEvent[] = [];
    bus.subscribe((event) => published.push(event));
    const events = createDomainEvents<FrontdeskEvent>({
      inTransaction: [],
      afterCommit: [
        () => {
          throw new Error("a subscriber is down");
        },
        publishBusEventsOf(bus),
      ],
      onAfterCommitError: (error, event) => logger.error({ err: error, event: event.type }, "after-commit subscriber failed"),
    });
    const result = await store.db.transaction(async (tx) => {
      await tx.query(`INSERT INTO after_commit_probe (id) VALUES ($1)`, ["ag_failing"]);
      await events.raise(tx, agentChanged("ag_failing"));
      return "committed";
    });
    expect(result).toBe("committed");
    expect((await store.db.query(`SELECT id FROM after_commit_probe WHERE id = $1`, ["ag_failing"])).rows).toEqual([{ id: "ag_failing" }]);
    expect(published.map((event) => event.type)).toEqual(["agent.updated"]);
    expect(lines).toEqual([expect.objectContaining({ level: LOG_LEVELS.error, msg: "after-commit subscriber failed", event: "agent.changed", err: expect.objectContaining({ message: "a subscriber is down" }) })]);
  });

  it("error: work a transaction registered that rejects does not fail the committed transaction", async () => {
    const ran: string[] = [];
    const result = await store.db.transaction(async (tx) => {
      tx.afterCommit(() => Promise.reject(new Error("after-commit work failed")));
      tx.afterCommit(async () => void ran.push("second"));
      return 42;
    });
    expect(result).toBe(42);
    expect(ran).toEqual(["second"]);
  });
});
