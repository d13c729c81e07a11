import { afterAll, beforeAll, expect, it } from "vitest";
import { capturedLogger, LOG_LEVELS, type LogLine } from "../support/captured-log.js";
import { bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";

describeEachStore("the realtime bus as an after-commit subscriber, through the app on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let lines: LogLine[];

  beforeAll(async () => {
    const captured = capturedLogger();
    lines = captured.lines;
    t = await createTestApp(kind, {}, { logger: captured.logger });
    tenant = await seedTenant(t.services);
  });
  afterAll(() => t.close());

  it("happy: a console hearing `conversation.updated` reads the committed state from the store", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const read: unknown[] = [];
    const reads: Promise<void>[] = [];
    const stop = t.services.bus.subscribe((event) => {
      if (event.type !== "conversation.updated" || event.conversationId !== session.conversationId) return;
      reads.push(
        t.services.db
          .query<{ status: string }>(`SELECT status FROM conversations WHERE id = $1`, [event.conversationId])
          .then(({ rows }) => void read.push(rows[0]?.status)),
      );
    });
    try {
      const response = await t.app.inject({ method: "POST", url: `${W}/request-human`, headers: bearer(session.jwt), payload: {} });
      expect(response.statusCode).toBe(200);
      await Promise.all(reads);
      expect(read).toEqual(["awaiting_human"]);
    } finally {
      stop();
    }
  });

  it("error: a bus listener that throws is logged; the request succeeds and its change is stored", async () => {
    const session = await startSession(t.app, tenant.agentId);
    lines.length = 0;
    const stop = t.services.bus.subscribe(() => {
      throw new Error("a console carrier is down");
    });
    try {
      const response = await t.app.inject({ method: "POST", url: `${W}/request-human`, headers: bearer(session.jwt), payload: { reason: "refund" } });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ status: "awaiting_human", reason: "refund" });
    } finally {
      stop();
    }
    const { rows } = await t.services.db.query<{ status: string }>(`SELECT status FROM conversations WHERE id = $1`, [session.conversationId]);
    expect(rows).toEqual([{ status: "awaiting_human" }]);
    // The test's own listener, subscribed first, heard the first bus event before the failing one threw.
    const mine = t.published.filter((event) => "conversationId" in event && event.conversationId === session.conversationId).map((event) => event.type);
    expect(mine).toEqual(["conversation.started", "conversation.updated"]);
    const failures = lines.filter((line) => line.msg === "after-commit subscriber failed; the change is committed");
    expect(failures.map((line) => [line.level, line.event])).toEqual([[LOG_LEVELS.error, "human.requested"]]);
  });
});
