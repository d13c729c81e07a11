import { afterAll, beforeAll, expect, it } from "vitest";
import { purgeExpiredReplyKeys } from "../../src/conversations/operator-reply-keys.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { createSignedInOperator, CONSOLE, type ConsoleSession } from "../support/console-session.js";
import { formData } from "../support/generated-files.js";
import { bearer, SITE_ORIGIN, seedTenant, type Tenant } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";
/** A 1×1 PNG, the file an operator sends with a reply. */
const PIXEL_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

/**
 * An operator's reply sent again with its Idempotency-Key (the console lost the answer: the network
 * dropped after the service stored it) is stored once: the repeat answers the first reply.
 */
describeEachStore("an operator's reply with an Idempotency-Key on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let ana: ConsoleSession;
  let bob: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "300" });
    tenant = await seedTenant(t.services);
    ana = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
    bob = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Bob" });
  });
  afterAll(() => t?.close());

  /** A conversation of a new visitor, taken over by `operator`. */
  async function takenOver(operator: ConsoleSession): Promise<{ conversationId: string; jwt: string }> {
    const init = await t.app.inject({
      method: "POST",
      url: `${W}/init`,
      headers: { origin: SITE_ORIGIN },
      payload: { agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, new_conversation: true },
    });
    const { conversation_id: conversationId, jwt } = init.json<{ data: { conversation_id: string; jwt: string } }>().data;
    const assigned = await consoleCall(operator, conversationId, "assign", {});
    expect(assigned.statusCode).toBe(200);
    return { conversationId, jwt };
  }

  function consoleCall(operator: ConsoleSession, conversationId: string, action: string, payload?: Record<string, unknown>, headers: Record<string, string> = {}) {
    return t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${conversationId}/${action}`, headers: { ...operator.headers, ...headers }, ...(payload === undefined ? {} : { payload }) });
  }
  const reply = (operator: ConsoleSession, conversationId: string, content: string, key?: string) =>
    consoleCall(operator, conversationId, "messages", { content }, key === undefined ? {} : { "idempotency-key": key });

  const operatorMessages = async (conversationId: string) =>
    (await t.services.db.query<{ id: string; content: string }>(`SELECT id, content FROM messages WHERE conversation_id = $1 AND role = 'operator' ORDER BY seq`, [conversationId])).rows;
  const keyRows = async (conversationId: string) =>
    (await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM operator_reply_keys WHERE conversation_id = $1`, [conversationId])).rows[0]!.n;
  const repliedEvents = (conversationId: string, from: number) =>
    t.published.slice(from).filter((event) => event.type === "message.created" && "conversationId" in event && event.conversationId === conversationId);

  it("happy: a repeat of the key stores and sends nothing and answers 201 with the first reply, byte for byte", async () => {
    const { conversationId } = await takenOver(ana);
    const from = t.published.length;
    const first = await reply(ana, conversationId, "Your refund is on its way.", "key-1");
    expect(first.statusCode).toBe(201);
    const again = await reply(ana, conversationId, "Your refund is on its way.", "key-1");
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await operatorMessages(conversationId)).toEqual([{ id: first.json<{ data: { id: string } }>().data.id, content: "Your refund is on its way." }]);
    expect(repliedEvents(conversationId, from)).toHaveLength(1);
    // Without a key, the same text is a new reply (as before keys existed).
    expect((await reply(ana, conversationId, "Your refund is on its way.")).statusCode).toBe(201);
    expect(await operatorMessages(conversationId)).toHaveLength(2);
  });

  it("happy: the repeat answers the first reply after the conversation was handed back and closed meanwhile", async () => {
    const { conversationId } = await takenOver(ana);
    const first = await reply(ana, conversationId, "Done, see you.", "key-closed");
    expect((await consoleCall(ana, conversationId, "release")).statusCode).toBe(200);
    const handedBack = await reply(ana, conversationId, "Done, see you.", "key-closed");
    expect(handedBack.statusCode).toBe(201);
    expect(handedBack.json()).toEqual(first.json());
    expect((await consoleCall(ana, conversationId, "close")).statusCode).toBe(200);
    const again = await reply(ana, conversationId, "Done, see you.", "key-closed");
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    // A new reply in the closed conversation is still refused.
    expect((await reply(ana, conversationId, "Done, see you.", "another-key")).json()).toMatchObject({ error: { code: "conversation_closed" } });
  });

  it("happy: a repeat of a reply with a file presents the file again with a link signed then (none is kept), which opens after the first link expired", async () => {
    const { conversationId } = await takenOver(ana);
    const uploaded = await t.app.inject({
      method: "POST",
      url: `${CONSOLE}/conversations/${conversationId}/attachments`,
      headers: ana.headers,
      payload: formData({}, { name: "receipt.png", bytes: PIXEL_PNG, type: "image/png" }),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const fileId = uploaded.json<{ data: { id: string } }>().data.id;
    const send = () => consoleCall(ana, conversationId, "messages", { content: "Your receipt", attachment_ids: [fileId] }, { "idempotency-key": "key-file" });
    const first = (await send()).json<{ data: { attachments: { id: string; url: string }[] } }>().data;
    expect(first.attachments.map((file) => file.id)).toEqual([fileId]);
    const kept = (await t.services.db.query<{ reply: string }>(`SELECT reply::text AS reply FROM operator_reply_keys WHERE conversation_id = $1`, [conversationId])).rows[0]!.reply;
    expect(kept).not.toContain("access=");
    const open = async (url: string) => (await t.app.inject({ method: "GET", url: new URL(url).pathname + new URL(url).search })).statusCode;
    expect(await open(first.attachments[0]!.url)).toBe(200);
    t.clock.offsetMs += 2 * 60 * 60 * 1000;
    try {
      expect(await open(first.attachments[0]!.url)).not.toBe(200);
      const again = await send();
      expect(again.statusCode).toBe(201);
      const replayed = again.json<{ data: { id: string; attachments: { id: string; url: string }[] } }>().data;
      expect({ ...replayed, attachments: replayed.attachments.map((file) => file.id) }).toEqual({ ...first, attachments: [fileId] });
      expect(await open(replayed.attachments[0]!.url)).toBe(200);
    } finally {
      t.clock.offsetMs -= 2 * 60 * 60 * 1000;
    }
    expect(await operatorMessages(conversationId)).toHaveLength(1);
  });

  it("happy: the same key in two conversations is two replies", async () => {
    const one = await takenOver(ana);
    const two = await takenOver(ana);
    expect((await reply(ana, one.conversationId, "Hello", "shared-key")).statusCode).toBe(201);
    expect((await reply(ana, two.conversationId, "Hello", "shared-key")).statusCode).toBe(201);
    expect(await operatorMessages(one.conversationId)).toHaveLength(1);
    expect(await operatorMessages(two.conversationId)).toHaveLength(1);
  });

  it("concurrency: two sends of one reply at once store it once and answer both with it", async () => {
    const { conversationId } = await takenOver(ana);
    const both = await Promise.all([0, 1].map(() => reply(ana, conversationId, "Only once, please.", "key-race")));
    expect(both.map((response) => response.statusCode)).toEqual([201, 201]);
    expect(both[1]!.json()).toEqual(both[0]!.json());
    expect(await operatorMessages(conversationId)).toHaveLength(1);
  });

  it("error: the key with another content, or sent by another operator, is 422 idempotency_key_reused and stores nothing", async () => {
    const { conversationId } = await takenOver(ana);
    expect((await reply(ana, conversationId, "First text", "key-reused")).statusCode).toBe(201);
    const changed = await reply(ana, conversationId, "Second text", "key-reused");
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toEqual({ error: { code: "idempotency_key_reused", message: expect.any(String), fields: { "headers.idempotency-key": [expect.any(String)] } } });
    const byBob = await reply(bob, conversationId, "First text", "key-reused");
    expect(byBob.statusCode).toBe(422);
    expect(byBob.json()).toMatchObject({ error: { code: "idempotency_key_reused" } });
    expect(await operatorMessages(conversationId)).toHaveLength(1);
  });

  it("error: a malformed key (empty, longer than 255 characters, not printable ASCII) is 422 validation_failed naming the header; nothing stored", async () => {
    const { conversationId } = await takenOver(ana);
    for (const key of ["", "k".repeat(256), "clé"]) {
      const response = await reply(ana, conversationId, "Hi", key);
      expect(response.statusCode, key).toBe(422);
      expect(response.json()).toMatchObject({ error: { code: "validation_failed", fields: { "headers.idempotency-key": [expect.any(String)] } } });
    }
    expect(await operatorMessages(conversationId)).toEqual([]);
  });

  it("happy: a key is kept 24 hours: past them the hourly purge deletes it, and the key is free again", async () => {
    const { conversationId } = await takenOver(ana);
    expect((await reply(ana, conversationId, "Kept a day", "key-expiring")).statusCode).toBe(201);
    expect(await purgeExpiredReplyKeys(t.services.db)).toBe(0);
    await t.services.db.query(`UPDATE operator_reply_keys SET expires_at = now() - interval '1 second' WHERE conversation_id = $1`, [conversationId]);
    // Expired but not yet purged: not a repeat any more.
    expect((await reply(ana, conversationId, "Another reply", "key-expiring")).statusCode).toBe(201);
    await t.services.db.query(`UPDATE operator_reply_keys SET expires_at = now() - interval '1 second' WHERE conversation_id = $1`, [conversationId]);
    expect(await purgeExpiredReplyKeys(t.services.db)).toBe(1);
    expect(await keyRows(conversationId)).toBe(0);
    expect(await operatorMessages(conversationId)).toHaveLength(2);
  });

  it("privacy: erasing the visitor deletes the kept replies with their conversation", async () => {
    const { conversationId, jwt } = await takenOver(ana);
    expect((await reply(ana, conversationId, "Your details are safe with us.", "key-erased")).statusCode).toBe(201);
    expect(await keyRows(conversationId)).toBe(1);
    const erased = await t.app.inject({ method: "DELETE", url: `${W}/me`, headers: { ...bearer(jwt), origin: SITE_ORIGIN } });
    expect(erased.statusCode).toBe(204);
    expect(await keyRows(conversationId)).toBe(0);
  });
});
