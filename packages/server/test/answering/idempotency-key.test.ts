import { createParser } from "eventsource-parser";
import { afterAll, beforeAll, expect, it } from "vitest";
import { purgeExpiredIdempotencyKeys } from "../../src/answering/idempotency-keys.js";
import { OPENAI_DONE, openAiChunkEvents } from "./generate/fixtures/openai-chat-stream.js";
import { startLoopbackChatServer, type LoopbackChatServer } from "./generate/loopback-chat-server.js";
import { bikeShopKnowledge, pushKnowledge } from "../support/knowledge.js";
import { bearer, seedTenant, SITE_ORIGIN, startSession, type StartedSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";
/** The JSON frames of an SSE body, read with a real SSE parser. */
function parseFrames(body: string): { frames: Record<string, unknown>[] } {
  const frames: Record<string, unknown>[] = [];
  createParser({ onEvent: (event) => frames.push(JSON.parse(event.data) as Record<string, unknown>) }).feed(body);
  return { frames };
}

const QUESTION = { message: "How long does a full battery charge take?", page_url: `${SITE_ORIGIN}/help` };

describeEachStore("Idempotency-Key on POST /messages and /messages/stream on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000" }, { workers: { allowPrivateNetworks: true } });
    tenant = await seedTenant(t.services);
    await pushKnowledge(t, tenant.workspaceId, tenant.agentId, bikeShopKnowledge);
  });
  afterAll(() => t.close());

  const ask = (session: StartedSession, key: string | undefined, payload: Record<string, unknown> = QUESTION, path = "/messages") =>
    t.app.inject({ method: "POST", url: `${W}${path}`, headers: { ...bearer(session.jwt), ...(key === undefined ? {} : { "idempotency-key": key }) }, payload });

  const stored = async (conversationId: string) =>
    (
      await t.services.db.query<{ role: string; content: string }>(`SELECT role, content FROM messages WHERE conversation_id = $1 ORDER BY seq`, [conversationId])
    ).rows.map((row) => row.role);

  const keysOf = async (conversationId: string) =>
    (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM message_idempotency_keys WHERE conversation_id = $1`, [conversationId])).rows[0]!.n;

  it("happy: a repeated key answers the first answer again and stores nothing twice, on either route", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const first = await ask(session, "msg-0001");
    expect(first.statusCode).toBe(200);
    const answer = first.json().data;
    expect(answer.content).toContain("four hours");

    const again = await ask(session, "msg-0001");
    expect(again.statusCode).toBe(200);
    expect(again.json().data).toEqual(answer);

    // The stream route replays the kept answer as a stream: the whole content as one token, citations, done.
    const streamed = await ask(session, "msg-0001", QUESTION, "/messages/stream");
    expect(streamed.statusCode).toBe(200);
    expect(streamed.headers["content-type"]).toContain("text/event-stream");
    const { frames } = parseFrames(streamed.body);
    expect(frames).toEqual([
      { event: "token", token: answer.content },
      { event: "citations", citations: answer.citations },
      { event: "done", conversation_id: session.conversationId, message_id: answer.message_id, low_confidence: answer.low_confidence },
    ]);
    expect(await stored(session.conversationId)).toEqual(["visitor", "bot"]);
    expect(await keysOf(session.conversationId)).toBe(1);
  });

  it("happy: a streamed first answer is kept whole and replayed to a repeat on /messages; another key is another message", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const streamed = await ask(session, "stream-1", QUESTION, "/messages/stream");
    const { frames } = parseFrames(streamed.body);
    const text = frames.filter((frame) => frame.event === "token").map((frame) => frame.token).join("");
    const done = frames.at(-1)!;
    const again = await ask(session, "stream-1");
    expect(again.json().data).toMatchObject({ content: text, message_id: done.message_id });
    await ask(session, "stream-2");
    expect(await stored(session.conversationId)).toEqual(["visitor", "bot", "visitor", "bot"]);
  });

  it("happy: keys belong to their conversation: the same key in another conversation is a new message", async () => {
    const one = await startSession(t.app, tenant.agentId);
    const two = await startSession(t.app, tenant.agentId);
    expect((await ask(one, "shared-key")).statusCode).toBe(200);
    expect((await ask(two, "shared-key")).statusCode).toBe(200);
    expect(await stored(one.conversationId)).toEqual(["visitor", "bot"]);
    expect(await stored(two.conversationId)).toEqual(["visitor", "bot"]);
  });

  it("happy: in a closed conversation the keyed message reopens it once; its repeat reopens nothing and stores nothing", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const closed = await t.app.inject({ method: "POST", url: `${W}/conversation/close`, headers: bearer(session.jwt) });
    expect(closed.statusCode).toBe(200);
    const first = await ask(session, "after-close");
    expect(first.statusCode).toBe(200);
    const rows = await stored(session.conversationId);
    expect(rows.filter((role) => role === "visitor")).toHaveLength(1);
    const again = await ask(session, "after-close", QUESTION, "/messages/stream");
    expect(again.statusCode).toBe(200);
    expect(await stored(session.conversationId)).toEqual(rows);
  });

  it("error: the key sent again with another body is 422 idempotency_key_reused (as JSON on the stream route too), and stores nothing", async () => {
    const session = await startSession(t.app, tenant.agentId);
    await ask(session, "reused");
    for (const path of ["/messages", "/messages/stream"]) {
      const other = await ask(session, "reused", { ...QUESTION, message: "Do you deliver on Sundays?" }, path);
      expect(other.statusCode).toBe(422);
      expect(other.headers["content-type"]).toContain("application/json");
      expect(other.json()).toEqual({ error: { code: "idempotency_key_reused", message: expect.any(String), fields: { "headers.idempotency-key": [expect.any(String)] } } });
    }
    const otherPage = await ask(session, "reused", { ...QUESTION, page_url: `${SITE_ORIGIN}/elsewhere` });
    expect(otherPage.json().error.code).toBe("idempotency_key_reused");
    expect(await stored(session.conversationId)).toEqual(["visitor", "bot"]);
  });

  it("error: a key that is empty, too long or not printable ASCII is 422 validation_failed naming the header, before anything is stored", async () => {
    const session = await startSession(t.app, tenant.agentId);
    for (const key of ["", "k".repeat(256), "tab\there", "caf\u00e9"]) {
      const response = await ask(session, key, QUESTION, key.length % 2 ? "/messages" : "/messages/stream");
      expect(response.statusCode, JSON.stringify(key)).toBe(422);
      expect(response.json().error).toMatchObject({ code: "validation_failed", fields: { "headers.idempotency-key": [expect.any(String)] } });
    }
    expect((await ask(session, "k".repeat(255))).statusCode).toBe(200);
    expect((await ask(session, " ~!printable ASCII~ ")).statusCode).toBe(200);
    expect(await stored(session.conversationId)).toEqual(["visitor", "bot", "visitor", "bot"]);
  });

  it("security: concurrent requests with one key store one message; each gets that answer or 409 idempotency_request_in_progress", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) => ask(session, "concurrent", QUESTION, index % 2 ? "/messages" : "/messages/stream")),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.every((status) => status === 200 || status === 409), statuses.join()).toBe(true);
    for (const response of responses.filter((each) => each.statusCode === 409)) {
      expect(response.json().error.code).toBe("idempotency_request_in_progress");
      expect(response.headers["retry-after"]).toBe("1");
    }
    const messageIds = new Set(
      responses
        .filter((response) => response.statusCode === 200)
        .map((response) => (String(response.headers["content-type"]).includes("event-stream") ? parseFrames(response.body).frames.at(-1)!.message_id : response.json().data.message_id)),
    );
    expect(messageIds.size).toBe(1);
    expect(await stored(session.conversationId)).toEqual(["visitor", "bot"]);
  });

  it("error: while the first request is still answering a repeat is 409; once its lease has run out (its process stopped), the repeat answers the stored message without storing it again", async () => {
    const session = await startSession(t.app, tenant.agentId);
    await ask(session, "interrupted");
    // As if the service had stopped after storing the question, before the answer: no answer kept, the lease running.
    await t.services.db.query(`DELETE FROM messages WHERE conversation_id = $1 AND role = 'bot'`, [session.conversationId]);
    await t.services.db.query(`UPDATE message_idempotency_keys SET answer = NULL, lease_until = now() + interval '1 minute' WHERE conversation_id = $1`, [session.conversationId]);
    const during = await ask(session, "interrupted", QUESTION, "/messages/stream");
    expect(during.statusCode).toBe(409);
    expect(during.json().error.code).toBe("idempotency_request_in_progress");

    await t.services.db.query(`UPDATE message_idempotency_keys SET lease_until = now() - interval '1 second' WHERE conversation_id = $1`, [session.conversationId]);
    const after = await ask(session, "interrupted");
    expect(after.statusCode).toBe(200);
    expect(after.json().data.content).toContain("four hours");
    expect(await stored(session.conversationId)).toEqual(["visitor", "bot"]);
    expect((await ask(session, "interrupted")).json().data).toEqual(after.json().data);
  });

  it("happy: after 24 hours a key is new again, and the hourly purge deletes expired keys", async () => {
    const session = await startSession(t.app, tenant.agentId);
    await ask(session, "day-old");
    await t.services.db.query(`UPDATE message_idempotency_keys SET expires_at = now() - interval '1 second' WHERE conversation_id = $1`, [session.conversationId]);
    expect((await ask(session, "day-old", { ...QUESTION, message: "Do you deliver on Sundays?" })).statusCode).toBe(200);
    expect(await stored(session.conversationId)).toEqual(["visitor", "bot", "visitor", "bot"]);
    await t.services.db.query(`UPDATE message_idempotency_keys SET expires_at = now() - interval '1 second' WHERE conversation_id = $1`, [session.conversationId]);
    expect(await purgeExpiredIdempotencyKeys(t.services.db)).toBeGreaterThanOrEqual(1);
    expect(await keysOf(session.conversationId)).toBe(0);
  });

  it("security: erasing the visitor (DELETE /me) deletes their keys", async () => {
    const session = await startSession(t.app, tenant.agentId);
    await ask(session, "erase-me");
    expect(await keysOf(session.conversationId)).toBe(1);
    const erased = await t.app.inject({ method: "DELETE", url: `${W}/me`, headers: bearer(session.jwt) });
    expect(erased.statusCode).toBe(204);
    const { rows } = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM message_idempotency_keys WHERE visitor_id = $1`, [session.visitorId]);
    expect(rows[0]!.n).toBe(0);
  });
});

describeEachStore("Idempotency-Key while the first answer is still being written, on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let model: LoopbackChatServer;

  beforeAll(async () => {
    model = await startLoopbackChatServer();
    t = await createTestApp(
      kind,
      { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000", FRONTDESK_LLM_PROVIDER: "openai", FRONTDESK_LLM_BASE_URL: model.origin, FRONTDESK_LLM_MODEL: "gpt-4o-mini", FRONTDESK_LLM_API_KEY: "test-key" },
      { workers: { allowPrivateNetworks: true } },
    );
    tenant = await seedTenant(t.services);
    await pushKnowledge(t, tenant.workspaceId, tenant.agentId, bikeShopKnowledge);
  });
  afterAll(async () => {
    await t.close();
    await model.close();
  });

  it("security: a repeat while the model is still answering the first is 409 idempotency_request_in_progress and stores nothing; once the first is done, the repeat gets its answer", async () => {
    const session = await startSession(t.app, tenant.agentId);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const [opening, ...chunks] = openAiChunkEvents(["A full charge ", "takes about four hours."]);
    model.respondWith({
      status: 200,
      headers: { "content-type": "text/event-stream; charset=utf-8" },
      steps: [{ write: opening! }, { until: gate }, ...chunks.map((write) => ({ write })), { write: OPENAI_DONE }],
    });
    const headers = { ...bearer(session.jwt), "idempotency-key": "slow-one" };
    const first = t.app.inject({ method: "POST", url: `${W}/messages/stream`, headers, payload: QUESTION });
    await expect.poll(() => model.requests.length, { timeout: 10_000 }).toBe(1);

    for (const path of ["/messages", "/messages/stream"]) {
      const during = await t.app.inject({ method: "POST", url: `${W}${path}`, headers, payload: QUESTION });
      expect(during.statusCode).toBe(409);
      expect(during.headers["retry-after"]).toBe("1");
      expect(during.json()).toEqual({ error: { code: "idempotency_request_in_progress", message: expect.any(String) } });
    }
    const { rows: during } = await t.services.db.query<{ role: string }>(`SELECT role FROM messages WHERE conversation_id = $1`, [session.conversationId]);
    expect(during.map((row) => row.role)).toEqual(["visitor"]);

    release();
    const done = await first;
    expect(done.statusCode).toBe(200);
    const repeat = await t.app.inject({ method: "POST", url: `${W}/messages`, headers, payload: QUESTION });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json().data.content).toBe("A full charge takes about four hours.");
    expect(model.requests).toHaveLength(1);
    const { rows } = await t.services.db.query<{ role: string }>(`SELECT role FROM messages WHERE conversation_id = $1 ORDER BY seq`, [session.conversationId]);
    expect(rows.map((row) => row.role)).toEqual(["visitor", "bot"]);
  });
});
