import { pino } from "pino";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { WebhookDelivery } from "@frontdesk/contracts";
import { registerWebhookWorkers } from "../../src/webhooks/register-webhook-workers.js";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { bikeShopKnowledge, pushKnowledge } from "../support/knowledge.js";
import { bearer, SITE_ORIGIN, startSession, type StartedSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { LoopbackReceiver } from "../webhooks/loopback-receiver.js";

const W = "/api/v1/widget";

/** POST /widget/messages/{id}/feedback: a visitor's 👍/👎 on one bot answer, its webhook, and every way it is refused. */
describeEachStore("rating a bot answer on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let admin: ConsoleSession;
  let workers: { close(): Promise<void> };
  const receiver = new LoopbackReceiver();

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp(
      kind,
      { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000", FRONTDESK_WEBHOOK_ALLOWED_NETWORKS: "127.0.0.1", FRONTDESK_RATE_LIMIT_SATISFACTION_PER_MINUTE: "8" },
      { workers: { allowPrivateNetworks: true } },
    );
    ({ tenant, admin } = await seedConsoleCast(t));
    workers = await registerWebhookWorkers(t.services, pino({ level: "silent" }), { resolve: async () => [{ address: "127.0.0.1", family: 4 as const }] });
    await pushKnowledge(t, tenant.workspaceId, tenant.agentId, bikeShopKnowledge);
  });
  afterAll(async () => {
    await t.close();
    await workers.close();
    await receiver.close();
  });

  let ip = 0;
  /** Each test from its own address: the route's budget is per IP, and one test spends it on purpose. */
  const nextIp = () => `10.1.0.${++ip}`;
  const rate = (jwt: string | null, messageId: string, payload: unknown, remoteAddress = nextIp()) =>
    t.app.inject({
      method: "POST",
      url: `${W}/messages/${messageId}/feedback`,
      headers: jwt ? bearer(jwt) : {},
      payload: payload as object,
      remoteAddress,
    });
  const ask = async (session: StartedSession, message: string) => {
    const response = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { message_id: string };
  };
  const ratingOf = async (messageId: string) =>
    (
      await t.services.db.query<{ rating: string | null; rating_comment: string | null; rated_at: Date | null }>(
        `SELECT rating, rating_comment, rated_at FROM messages WHERE id = $1`,
        [messageId],
      )
    ).rows[0];

  it("happy: 👍 then 👎 with a comment: the repeat replaces the rating, and each is delivered as message.rated", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/webhooks`,
      headers: admin.headers,
      payload: { url: receiver.on("/rated", (res) => res.end("ok")), events: ["message.rated"] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const endpointId = created.json().data.id as string;

    const session = await startSession(t.app, tenant.agentId);
    const answer = await ask(session, "When is my refund paid after you receive the return?");
    const up = await rate(session.jwt, answer.message_id, { rating: "up" });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().data).toEqual({ message_id: answer.message_id, conversation_id: session.conversationId, rating: "up", comment: null, rated_at: expect.any(String) });

    const down = await rate(session.jwt, answer.message_id, { rating: "down", comment: "It did not say how long." });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json().data).toMatchObject({ rating: "down", comment: "It did not say how long." });
    expect(await ratingOf(answer.message_id)).toMatchObject({ rating: "down", rating_comment: "It did not say how long." });

    await vi.waitFor(
      async () => {
        const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/webhooks/${endpointId}/deliveries?limit=100`, headers: admin.headers });
        const deliveries = response.json().data as WebhookDelivery[];
        expect(deliveries.filter((delivery) => delivery.status === "succeeded")).toHaveLength(2);
      },
      { timeout: 15_000, interval: 50 },
    );
    const bodies = receiver.at("/rated").map((request) => JSON.parse(request.body) as { type: string; data: Record<string, unknown> });
    expect(bodies.map((body) => body.type)).toEqual(["message.rated", "message.rated"]);
    const common = { conversation_id: session.conversationId, agent_id: tenant.agentId, message_id: answer.message_id, rated_at: expect.any(String) };
    expect(bodies.map((body) => body.data)).toEqual(
      expect.arrayContaining([
        { ...common, rating: "up", comment: null },
        { ...common, rating: "down", comment: "It did not say how long." },
      ]),
    );
  });

  it("happy: the bot's answer is stored with the pipeline's compact reason and the passages it read", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const answer = await ask(session, "How long does a full battery charge take?");
    const { rows } = await t.services.db.query<{ answer_trace: Record<string, unknown> }>(`SELECT answer_trace FROM messages WHERE id = $1`, [answer.message_id]);
    const trace = rows[0]!.answer_trace;
    expect(trace).toMatchObject({ decided_by: "composition", sure: true, generator: "extractive", turned_unsure: false, fell_back: false });
    expect(trace.passages).toContainEqual(expect.objectContaining({ url: "https://shop.example.com/help/battery", cited: true }));
  });

  it("error: a visitor's own message, another conversation's answer and an unknown id are each 404 message_not_found", async () => {
    const mine = await startSession(t.app, tenant.agentId);
    const theirs = await startSession(t.app, tenant.agentId);
    const myAnswer = await ask(mine, "Do you deliver on Sundays?");
    const theirAnswer = await ask(theirs, "Do you deliver on Sundays?");
    const { rows } = await t.services.db.query<{ id: string }>(`SELECT id FROM messages WHERE conversation_id = $1 AND role = 'visitor'`, [mine.conversationId]);
    for (const messageId of [rows[0]!.id, theirAnswer.message_id, "msg_unknown"]) {
      const response = await rate(mine.jwt, messageId, { rating: "down" });
      expect(response.statusCode, messageId).toBe(404);
      expect(response.json()).toEqual({ error: { code: "message_not_found", message: expect.any(String) } });
    }
    expect(await ratingOf(theirAnswer.message_id)).toMatchObject({ rating: null });
    expect(await ratingOf(myAnswer.message_id)).toMatchObject({ rating: null });
  });

  it("error: an operator's and a system message are 404 too", async () => {
    const session = await startSession(t.app, tenant.agentId);
    await ask(session, "Can I talk to a person please?");
    await t.app.inject({ method: "POST", url: `${W}/request-human`, headers: bearer(session.jwt), payload: {} });
    const taken = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${session.conversationId}/assign`, headers: admin.headers, payload: {} });
    expect(taken.statusCode, taken.body).toBe(200);
    const reply = await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${session.conversationId}/messages`, headers: admin.headers, payload: { content: "Hello, Ann here." } });
    expect(reply.statusCode, reply.body).toBe(201);
    const { rows } = await t.services.db.query<{ id: string; role: string }>(
      `SELECT id, role FROM messages WHERE conversation_id = $1 AND role IN ('operator', 'system')`,
      [session.conversationId],
    );
    expect(rows.map((row) => row.role)).toEqual(expect.arrayContaining(["operator", "system"]));
    for (const row of rows) {
      const response = await rate(session.jwt, row.id, { rating: "up" });
      expect(response.statusCode, row.role).toBe(404);
      expect(response.json().error.code).toBe("message_not_found");
    }
  });

  it("error: a bad body is 422 naming each field, a bad id is 422, and nothing is stored", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const answer = await ask(session, "Do you ship for free?");
    for (const [payload, field] of [
      [{}, "rating"],
      [{ rating: "meh" }, "rating"],
      [{ rating: "up", comment: "x".repeat(501) }, "comment"],
      [{ rating: "up", comment: 5 }, "comment"],
    ] as const) {
      const response = await rate(session.jwt, answer.message_id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(response.json().error.fields).toHaveProperty(field);
    }
    const badId = await rate(session.jwt, "not an id!", { rating: "up" });
    expect(badId.statusCode).toBe(422);
    expect(badId.json().error.fields).toHaveProperty("params.message_id");
    expect(await ratingOf(answer.message_id)).toMatchObject({ rating: null });
    // Exactly 500 characters is accepted.
    expect((await rate(session.jwt, answer.message_id, { rating: "up", comment: "x".repeat(500) })).statusCode).toBe(200);
  });

  it("error: without a token 401 missing_token, with a bad one 401 invalid_token, and the body is not looked at first", async () => {
    expect((await rate(null, "msg_x", { rating: "sideways" })).json().error.code).toBe("missing_token");
    const response = await rate("not-a-jwt", "msg_x", { rating: "up" });
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("invalid_token");
  });

  it("error: over the per-IP budget is 429 rate_limited with Retry-After", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const answer = await ask(session, "Do you ship for free?");
    const address = nextIp();
    for (let index = 0; index < 8; index += 1) expect((await rate(session.jwt, answer.message_id, { rating: "up" }, address)).statusCode).toBe(200);
    const limited = await rate(session.jwt, answer.message_id, { rating: "down" }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe("rate_limited");
    expect(limited.headers["retry-after"]).toBeDefined();
    expect(await ratingOf(answer.message_id)).toMatchObject({ rating: "up" });
  });
});
