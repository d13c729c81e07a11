import { setTimeout as delay } from "node:timers/promises";
import type { WebhookDelivery } from "@frontdesk/contracts";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { CONSOLE, type ConsoleSession } from "../support/console-session.js";
import { bearer, SITE_ORIGIN, startSession, type StartedSession, type Tenant } from "../support/seed.js";
import type { TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import type { LoopbackReceiver } from "./loopback-receiver.js";
import { startWebhookWorld, type WebhookWorld } from "./webhook-world.js";

const W = "/api/v1/widget";

/** One visitor's data, with markers that must be gone from every table and job once they are erased. */
interface Visitor {
  session: StartedSession;
  marker: string;
  email: string;
  phone: string;
}

/**
 * Issue 28's erasure findings, through webhooks with real workers and a real receiver on loopback:
 * an attempt under way when the visitor is erased is stopped and never retried; and after erasure,
 * no table and no job (queued, completed or archived) of either store holds the visitor's e-mail,
 * phone or words: not the events' bodies, not the receivers' echoes, not a curated question copied
 * from the visitor's message.
 */
describeEachStore("erasure reaches webhooks and curated answers on %s", (kind) => {
  let world: WebhookWorld;
  let t: TestApp;
  let tenant: Tenant;
  let admin: ConsoleSession;
  let receiver: LoopbackReceiver;

  beforeAll(async () => {
    world = await startWebhookWorld(kind, {
      FRONTDESK_WEBHOOK_ATTEMPTS: "4",
      FRONTDESK_WEBHOOK_RETRY_BASE_MS: "1000",
      FRONTDESK_WEBHOOK_TIMEOUT_SECONDS: "3",
      FRONTDESK_WEBHOOK_CIRCUIT_FAILURES: "100",
      FRONTDESK_RATE_LIMIT_LEADS_PER_MINUTE: "1000",
      FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000",
    });
    ({ t, receiver } = world);
    ({ tenant, admin } = world.cast);
  }, 120_000);
  afterAll(() => world.close());

  const post = async (session: StartedSession, path: string, payload: Record<string, unknown>) => {
    const response = await t.app.inject({ method: "POST", url: `${W}${path}`, headers: { ...bearer(session.jwt), origin: SITE_ORIGIN }, payload });
    expect(response.statusCode, `${path}: ${response.body}`).toBeLessThan(300);
    return response;
  };
  const createEndpoint = async (url: string, events: string[]): Promise<string> => {
    const response = await t.app.inject({ method: "POST", url: `${CONSOLE}/webhooks`, headers: admin.headers, payload: { url, events } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data.id;
  };
  const deliveries = async (endpointId: string): Promise<WebhookDelivery[]> => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/webhooks/${endpointId}/deliveries?limit=100`, headers: admin.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data;
  };
  const eraseByWidget = async (visitor: Visitor) => {
    const response = await t.app.inject({ method: "DELETE", url: `${W}/me`, headers: { ...bearer(visitor.session.jwt), origin: SITE_ORIGIN } });
    expect(response.statusCode, response.body).toBe(204);
  };
  const newVisitor = async (name: string): Promise<Visitor> => {
    const marker = `${name}${Math.random().toString(36).slice(2, 10)}`;
    const digits = String(Math.floor(Math.random() * 1e8)).padStart(8, "0");
    return { session: await startSession(t.app, tenant.agentId), marker, email: `${marker}@visitors.test`, phone: `+44 20 ${digits}` };
  };
  const needlesOf = (visitor: Visitor) => [visitor.marker, visitor.email, visitor.phone];

  /** Every base table of the service's schema and of the job queue's, and the rows of each that hold one of the needles. */
  const scan = async (needles: string[]): Promise<Record<string, number>> => {
    const { rows: tables } = await t.services.db.query<{ name: string }>(
      `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
       WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE' ORDER BY 1`,
    );
    expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(["pgboss.job", "public.messages", "public.curated_answers"]));
    const found: Record<string, number> = {};
    for (const { name } of tables) {
      const { rows } = await t.services.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${name} row WHERE ${needles.map((_, index) => `strpos(lower(row::text), lower($${index + 1})) > 0`).join(" OR ")}`,
        needles,
      );
      if (rows[0]!.n > 0) found[name] = rows[0]!.n;
    }
    return found;
  };

  it("security: a receiver that hangs then fails while the visitor is erased receives nothing after the 204, and the attempt is never retried", async () => {
    const path = "/hangs-then-fails";
    const url = receiver.on(path, (res, index) => {
      if (index === 0) return receiver.hold(res);
      res.statusCode = 500;
      res.end("try later");
    });
    const endpointId = await createEndpoint(url, ["lead.created"]);
    const visitor = await newVisitor("hanging");
    await post(visitor.session, "/leads", { email: visitor.email, name: `Name ${visitor.marker}`, phone: visitor.phone });
    await vi.waitFor(() => expect(receiver.at(path)).toHaveLength(1), { timeout: 10_000, interval: 20 });
    expect(receiver.at(path)[0]!.body).toContain(visitor.email);

    await eraseByWidget(visitor);
    const atErasure = receiver.at(path).length;
    // Past the timeout (3 s) and the first retry's back-off (1 s) of the old behaviour.
    await delay(5_000);
    expect(receiver.at(path)).toHaveLength(atErasure);
    const log = await deliveries(endpointId);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ attempt: 1, status: "failed", response_body: null, error: expect.stringContaining("erased") });
    expect(await scan(needlesOf(visitor))).toEqual({});
  });

  it("security: a retry scheduled before the erasure is skipped, never sent", async () => {
    const path = "/fails";
    const url = receiver.on(path, (res) => {
      res.statusCode = 503;
      res.end(`unavailable`);
    });
    const endpointId = await createEndpoint(url, ["lead.created"]);
    const visitor = await newVisitor("retried");
    await post(visitor.session, "/leads", { email: visitor.email, name: "Retried" });
    // The first attempt failed and the second waits its back-off (1 s).
    await vi.waitFor(async () => expect((await deliveries(endpointId)).map((attempt) => attempt.status)).toEqual(["pending", "failed"]), { timeout: 10_000, interval: 20 });
    await eraseByWidget(visitor);
    await delay(2_500);
    expect(receiver.at(path)).toHaveLength(1);
    const log = await deliveries(endpointId);
    expect(log.map(({ attempt, status, response_body }) => ({ attempt, status, response_body }))).toEqual([
      { attempt: 2, status: "skipped", response_body: null },
      { attempt: 1, status: "failed", response_body: null },
    ]);
    expect(log[0]!.error).toMatch(/erased/);
    expect(await scan(needlesOf(visitor))).toEqual({});
  });

  it("security: after widget and console erasure no table or job holds the visitors' e-mail, phone or words; an operator's own question and another visitor stay", async () => {
    // A receiver that echoes what it gets: the delivery log keeps the start of its answer.
    const path = "/echo";
    const url = receiver.on(path, (res, index) => res.end(receiver.at(path)[index]!.body));
    const endpointId = await createEndpoint(url, ["lead.created", "human.requested", "satisfaction.rated", "conversation.closed"]);
    const [byWidget, byConsole, kept] = [await newVisitor("widget"), await newVisitor("console"), await newVisitor("kept")];
    for (const visitor of [byWidget, byConsole, kept]) {
      await post(visitor.session, "/messages", { message: `Where is parcel ${visitor.marker}?` });
      await post(visitor.session, "/leads", { email: visitor.email, name: `Name ${visitor.marker}`, phone: visitor.phone, fields: { order: visitor.marker } });
      await post(visitor.session, "/satisfaction", { rating: "bad", comment: `Slow ${visitor.marker}` });
      await post(visitor.session, "/request-human", { reason: `Call ${visitor.phone}` });
    }
    // Every delivery made and its job completed (the completed jobs are what the old payloads leaked through).
    await vi.waitFor(
      async () => {
        const log = await deliveries(endpointId);
        expect(log.filter((attempt) => attempt.status === "succeeded")).toHaveLength(9);
      },
      { timeout: 20_000, interval: 50 },
    );
    await vi.waitFor(
      async () => {
        const { rows } = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'deliver-webhook' AND state = 'completed'`);
        expect(rows[0]!.n).toBeGreaterThanOrEqual(9);
      },
      { timeout: 10_000, interval: 50 },
    );
    // "Fix this answer" on the bot's reply to the erased visitor: the question prefilled with their words.
    const replies = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${byWidget.session.conversationId}`, headers: admin.headers });
    expect(replies.statusCode, replies.body).toBe(200);
    const botReply = (replies.json().data.messages as { id: string; role: string }[]).find((message) => message.role === "bot")!;
    const fixed = await t.app.inject({ method: "POST", url: `${CONSOLE}/curated-answers`, headers: admin.headers, payload: { message_id: botReply.id, answer: "Parcels arrive in 3 days." } });
    expect(fixed.statusCode, fixed.body).toBe(201);
    expect(fixed.json().data.question).toContain(byWidget.marker);
    const own = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/curated-answers`,
      headers: admin.headers,
      payload: { message_id: botReply.id, question: "How long does delivery take?", answer: "Three days." },
    });
    expect(own.statusCode, own.body).toBe(201);

    const before = await scan([...needlesOf(byWidget), ...needlesOf(byConsole)]);
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(["public.messages", "public.leads", "public.webhook_deliveries", "public.curated_answers"]),
    );
    const keptBefore = await scan(needlesOf(kept));

    await eraseByWidget(byWidget);
    const consoleErasure = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/visitors/${byConsole.session.visitorId}`, headers: admin.headers });
    expect(consoleErasure.statusCode, consoleErasure.body).toBe(204);

    expect(await scan([...needlesOf(byWidget), ...needlesOf(byConsole)])).toEqual({});
    expect(await scan(needlesOf(kept))).toEqual(keptBefore);
    const curated = await t.app.inject({ method: "GET", url: `${CONSOLE}/curated-answers?agent_id=${tenant.agentId}`, headers: admin.headers });
    const list = curated.json().data as { id: string; question: string; answer: string }[];
    expect(list.find((entry) => entry.id === fixed.json().data.id)).toMatchObject({ question: "", answer: "Parcels arrive in 3 days." });
    expect(list.find((entry) => entry.id === own.json().data.id)).toMatchObject({ question: "How long does delivery take?" });
    // An emptied question answers nothing: the kept visitor asking the same words gets no curated answer.
    const asked = await t.app.inject({
      method: "POST",
      url: `${W}/messages`,
      headers: { ...bearer(kept.session.jwt), origin: SITE_ORIGIN },
      payload: { message: `Where is parcel ${byWidget.marker}?` },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().data.content).not.toContain("Parcels arrive in 3 days.");
  });
});
