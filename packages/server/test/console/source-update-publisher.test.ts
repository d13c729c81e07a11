import { afterAll, beforeAll, expect, it } from "vitest";
import { SourceUpdatePublisher, SOURCE_PROGRESS_INTERVAL_MS } from "../../src/console/knowledge/source-update-publisher.js";
import type { Queryable, SqlValue } from "../../src/db/database.js";
import type { BusEvent } from "../../src/realtime/event-bus.js";
import { createSource } from "../../src/sources/create-source.js";
import { setSourceOutcome } from "../../src/sources/source-repository.js";
import { seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

describeEachStore("announcing sources' progress on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services);
  });
  afterAll(() => t.close());

  const updatesOf = (sourceId: string) =>
    t.published.filter((event): event is Extract<BusEvent, { type: "source.updated" }> => event.type === "source.updated" && event.sourceId === sourceId);

  it("happy: progress of a syncing source is announced at most once per interval, its settling always, in the order asked", async () => {
    const clock = { now: 1_000_000 };
    const errors: unknown[] = [];
    const publisher = new SourceUpdatePublisher(t.services.db, t.services.bus, (error) => errors.push(error), () => clock.now);
    const { source } = await createSource(t.services, tenant.workspaceId, { agent_id: tenant.agentId, kind: "url", url: "https://shop.example.com/help" });

    await publisher.sourceChanged(source.id);
    clock.now += SOURCE_PROGRESS_INTERVAL_MS - 1;
    await publisher.sourceChanged(source.id);
    expect(updatesOf(source.id)).toHaveLength(1);
    clock.now += 1;
    await publisher.sourceChanged(source.id);
    expect(updatesOf(source.id).map((event) => event.syncing)).toEqual([true, true]);

    // Asked together: the one asked after the source settled is published last, and is never throttled.
    const first = publisher.sourceChanged(source.id);
    await setSourceOutcome(t.services.db, source.id, { status: "indexed" });
    const second = publisher.sourceChanged(source.id);
    await Promise.all([first, second]);
    const updates = updatesOf(source.id);
    expect(updates.at(-1)).toMatchObject({ status: "indexed", syncing: false, deleted: false, workspaceId: tenant.workspaceId, agentId: tenant.agentId });
    expect(updates.filter((event) => !event.syncing).length).toBeGreaterThanOrEqual(1);
    expect(errors).toEqual([]);
  });

  it("happy: a change its caller knows to be progress reads nothing within the interval; one that may settle the source always reads", async () => {
    const clock = { now: 2_000_000 };
    let reads = 0;
    const counting = { query: ((sql: string, params?: readonly SqlValue[]) => ((reads += 1), t.services.db.query(sql, params))) as Queryable["query"] };
    const publisher = new SourceUpdatePublisher(counting, t.services.bus, () => {}, () => clock.now);
    const { source } = await createSource(t.services, tenant.workspaceId, { agent_id: tenant.agentId, kind: "url", url: "https://shop.example.com/progress" });

    await publisher.sourceChanged(source.id, { syncing: true });
    const afterFirst = reads;
    expect(afterFirst).toBeGreaterThan(0);
    clock.now += SOURCE_PROGRESS_INTERVAL_MS - 1;
    await publisher.sourceChanged(source.id, { syncing: true });
    expect(reads).toBe(afterFirst);
    expect(updatesOf(source.id)).toHaveLength(1);
    await setSourceOutcome(t.services.db, source.id, { status: "indexed" });
    await publisher.sourceChanged(source.id, { syncing: false });
    expect(reads).toBeGreaterThan(afterFirst);
    expect(updatesOf(source.id).map((event) => event.syncing)).toEqual([true, false]);
  });

  it("error: an unknown source announces nothing and does not reject", async () => {
    const errors: unknown[] = [];
    const publisher = new SourceUpdatePublisher(t.services.db, t.services.bus, (error) => errors.push(error));
    const before = t.published.length;
    await expect(publisher.sourceChanged("src_unknown")).resolves.toBeUndefined();
    expect(t.published.length).toBe(before);
    expect(errors).toEqual([]);
  });
});
