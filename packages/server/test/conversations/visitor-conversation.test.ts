import type { Channel } from "pusher-js";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import type { AnswerGenerator } from "../../src/answering/generate/answer-generator.js";
import { createSignedInOperator, CONSOLE, type ConsoleSession } from "../support/console-session.js";
import { Pusher } from "../support/pusher-client.js";
import { createListeningTestApp, signedPusherClient, until, type ListeningTestApp, type ReverbDescriptor, visitorPusher } from "../support/realtime-clients.js";
import { bearer, SITE_ORIGIN, seedTenant, type Tenant } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";

interface Visitor {
  jwt: string;
  conversationId: string;
  anonymousId: string;
  reverb: ReverbDescriptor;
}

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", reject);
  });

/** An answer generator that sends its first words, then waits for `release()` before finishing. */
function gatedGenerator() {
  let entered!: () => void;
  let release!: () => void;
  const started = new Promise<void>((resolve) => (entered = resolve));
  const gate = new Promise<void>((resolve) => (release = resolve));
  const generator: AnswerGenerator = {
    id: "gated",
    async *generate() {
      yield { type: "token", token: "Half an answer" };
      entered();
      await gate;
      yield { type: "token", token: " and the rest." };
      yield { type: "done", citedDocumentIds: [], lowConfidence: false, judgement: "answered", generator: "gated" };
    },
  };
  return { generator, started, release };
}

describeEachStore("the visitor's /conversation routes and the bot's turn on %s", (kind) => {
  let t: ListeningTestApp;
  let tenant: Tenant;
  let ana: ConsoleSession;
  let originalAnswers: AnswerGenerator;
  const clients: Pusher[] = [];

  beforeAll(async () => {
    t = await createListeningTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "300" });
    tenant = await seedTenant(t.services);
    ana = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
    originalAnswers = t.services.answers;
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
    t.services.answers = originalAnswers;
  });
  afterAll(() => t.close());

  const url = (path: string) => `http://127.0.0.1:${t.port}${path}`;

  async function visitor(body: Record<string, unknown> = { new_conversation: true }): Promise<Visitor> {
    const response = await fetch(url(`${W}/init`), {
      method: "POST",
      headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, ...body }),
    });
    const { data } = (await response.json()) as { data: { jwt: string; conversation_id: string; anonymous_id: string; reverb: ReverbDescriptor } };
    return { jwt: data.jwt, conversationId: data.conversation_id, anonymousId: data.anonymous_id, reverb: data.reverb };
  }

  const get = async (session: Visitor | null, path: string) => {
    const response = await fetch(url(`${W}${path}`), { headers: session ? bearer(session.jwt) : {} });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
  };
  const post = async (session: Visitor, path: string, body: unknown = {}) => {
    const response = await fetch(url(`${W}${path}`), { method: "POST", headers: { ...bearer(session.jwt), "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, text: await response.text() };
  };
  const operator = async (conversationId: string, action: string, body?: unknown) => {
    const response = await fetch(url(`${CONSOLE}/conversations/${conversationId}/${action}`), {
      method: "POST",
      headers: { ...ana.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, `${action}: ${await response.clone().text()}`).toBeLessThan(300);
  };
  const roles = async (conversationId: string) =>
    (await t.services.db.query<{ role: string }>(`SELECT role FROM messages WHERE conversation_id = $1 ORDER BY conversation_seq`, [conversationId])).rows.map((row) => row.role);

  it("happy: GET /conversation tells the state, the assignee's name and whether operators are online (a pusher-js operator on the presence channel)", async () => {
    const session = await visitor();
    expect((await get(session, "/conversation")).body).toEqual({
      data: { status: "bot", assignee: null, operators_online: false, human_requested_at: null, updated_seq: null },
    });

    const online = signedPusherClient(session.reverb, t.pusherServer, { user_id: ana.operator.id, user_info: { name: "Ana" } });
    clients.push(online);
    await subscribed(online.subscribe(`presence-operators.${tenant.workspaceId}`));
    const requested = await post(session, "/request-human", { reason: "refund" });
    expect(JSON.parse(requested.text).data).toMatchObject({ status: "awaiting_human", operators_online: true, reason: "refund" });
    await operator(session.conversationId, "assign");
    const state = await get(session, "/conversation");
    expect(state.status).toBe(200);
    expect(state.headers.get("x-ratelimit-remaining")).not.toBeNull();
    expect(state.body.data).toEqual({
      status: "human",
      assignee: { name: "Ana" },
      operators_online: true,
      human_requested_at: JSON.parse(requested.text).data.human_requested_at,
      updated_seq: 3,
    });

    online.disconnect();
    await until(async () => (await get(session, "/conversation")).body.data.operators_online === false);
  });

  it("happy: request-human with no operator online says operators_online false, so the widget can offer to leave an e-mail", async () => {
    const session = await visitor();
    const requested = JSON.parse((await post(session, "/request-human")).text);
    expect(requested.data).toEqual({
      conversation_id: session.conversationId,
      status: "awaiting_human",
      human_requested_at: expect.any(String),
      reason: null,
      operators_online: false,
      outside_hours: false,
    });
  });

  it("happy: GET /conversation/messages?after_seq=N is what the visitor missed, in init's shape, system and operator messages included; init's last 30 have them too", async () => {
    const session = await visitor();
    await post(session, "/messages", { message: "Do you ship abroad?" });
    await post(session, "/request-human");
    await operator(session.conversationId, "assign");
    await operator(session.conversationId, "messages", { content: "Hello, Ana here." });
    await operator(session.conversationId, "release");

    const all = await get(session, "/conversation/messages");
    expect(all.status).toBe(200);
    const messages = all.body.data.messages as Record<string, unknown>[];
    expect(messages.map((message) => [message.seq, message.role, message.role === "system" || message.role === "operator" ? message.content : "…"])).toEqual([
      [1, "visitor", "…"],
      [2, "bot", "…"],
      [4, "system", "Waiting for a person to join"],
      [6, "system", "Ana joined the conversation"],
      [7, "operator", "Hello, Ana here."],
      [9, "system", "The assistant is back"],
    ]);
    expect(messages[4]).toEqual({ id: expect.stringMatching(/^msg_/), seq: 7, role: "operator", content: "Hello, Ana here.", code: null, citations: [], author: { name: "Ana" }, created_at: expect.any(String) });
    expect(messages[3]).toMatchObject({ code: "operator_joined", author: { name: "Ana" }, citations: [] });
    expect(all.body.data.has_more).toBe(false);

    const missed = await get(session, "/conversation/messages?after_seq=6");
    expect(missed.body.data.messages.map((message: { seq: number }) => message.seq)).toEqual([7, 9]);
    const paged = await get(session, "/conversation/messages?after_seq=1&limit=2");
    expect(paged.body.data).toMatchObject({ has_more: true });
    expect(paged.body.data.messages.map((message: { seq: number }) => message.seq)).toEqual([2, 4]);
    expect((await get(session, "/conversation/messages?after_seq=9")).body.data).toEqual({ messages: [], has_more: false });

    const resumed = await fetch(url(`${W}/init`), {
      method: "POST",
      headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, anon_id: session.anonymousId }),
    });
    expect(((await resumed.json()) as { data: { messages: unknown[] } }).data.messages).toEqual(messages);
  });

  it.each([["-1"], ["1.5"], ["abc"], ["99999999999"], ["2147483648"]])("error: after_seq=%s is 422", async (value) => {
    const session = await visitor();
    const response = await get(session, `/conversation/messages?after_seq=${value}`);
    expect(response.status).toBe(422);
    expect(Object.keys(response.body.error.fields)).toEqual(["querystring.after_seq"]);
  });

  it.each([["0"], ["101"], ["x"]])("error: limit=%s is 422", async (value) => {
    const session = await visitor();
    expect((await get(session, `/conversation/messages?limit=${value}`)).status).toBe(422);
  });

  it("happy: POST /conversation/close ends it with a system message seen live; again changes nothing; the next message reopens it with the bot", async () => {
    const session = await visitor();
    const pusher = visitorPusher(session.reverb, url(""), session.jwt);
    clients.push(pusher);
    const channel = pusher.subscribe(`private-conversation.${session.conversationId}`);
    await subscribed(channel);
    const live: { event: string; data: Record<string, unknown> }[] = [];
    channel.bind_global((event: string, data: Record<string, unknown>) => {
      if (!event.startsWith("pusher:")) live.push({ event, data });
    });

    const closed = await post(session, "/conversation/close");
    expect(closed.status).toBe(200);
    expect(JSON.parse(closed.text).data).toEqual({ status: "closed", assignee: null, operators_online: false, human_requested_at: null, updated_seq: 1 });
    await until(() => live.length === 2);
    expect(live).toEqual([
      { event: "conversation.updated", data: { seq: 1, status: "closed", assignee: null, human_requested_at: null } },
      { event: "message.created", data: expect.objectContaining({ seq: 2, role: "system", content: "Conversation closed", author: null }) },
    ]);
    const row = await t.services.db.query<{ closed_by: string; closed_at: Date | null }>(`SELECT closed_by, closed_at FROM conversations WHERE id = $1`, [session.conversationId]);
    expect(row.rows[0]).toMatchObject({ closed_by: "visitor", closed_at: expect.any(Date) });

    const again = await post(session, "/conversation/close");
    expect(JSON.parse(again.text).data.updated_seq).toBe(1);
    expect(await roles(session.conversationId)).toEqual(["system"]);

    const answer = JSON.parse((await post(session, "/messages", { message: "Do you ship abroad?" })).text).data;
    expect(answer.content).not.toBe("");
    expect(await roles(session.conversationId)).toEqual(["system", "system", "visitor", "bot"]);
    expect((await get(session, "/conversation")).body.data.status).toBe("bot");
  });

  it("happy: the visitor's pusher-js hears the operator typing and their message with role operator and their name", async () => {
    const session = await visitor();
    const pusher = visitorPusher(session.reverb, url(""), session.jwt);
    clients.push(pusher);
    const channel = pusher.subscribe(`private-conversation.${session.conversationId}`);
    await subscribed(channel);
    const typing = new Promise((resolve) => channel.bind("typing", resolve));
    const messages: Record<string, unknown>[] = [];
    channel.bind("message.created", (message: Record<string, unknown>) => messages.push(message));
    await operator(session.conversationId, "assign");
    await operator(session.conversationId, "typing", { typing: true });
    expect(await typing).toEqual({ role: "operator", typing: true, name: "Ana" });
    await operator(session.conversationId, "messages", { content: "How can I help?" });
    await until(() => messages.length === 2);
    expect(messages[0]).toMatchObject({ role: "system", content: "Ana joined the conversation", code: "operator_joined", author: { id: ana.operator.id, name: "Ana" } });
    expect(messages[1]).toEqual({
      id: expect.any(String),
      seq: 3,
      role: "operator",
      content: "How can I help?",
      code: null,
      citations: [],
      created_at: expect.any(String),
      author: { id: ana.operator.id, name: "Ana" },
      curated_answer_id: null,
    });
  });

  it("concurrency: a streamed bot reply still being generated when an operator takes over is discarded: not stored, not published, and the stream ends with done discarded", async () => {
    const gated = gatedGenerator();
    t.services.answers = gated.generator;
    const session = await visitor();
    const from = t.published.length;
    const streaming = post(session, "/messages/stream", { message: "Do you ship abroad?" });
    await gated.started;
    await operator(session.conversationId, "assign");
    gated.release();
    const stream = await streaming;
    expect(stream.status).toBe(200);
    const frames = stream.text.split("\n\n").filter(Boolean).map((frame) => JSON.parse(frame.replace(/^data: /, "")));
    expect(frames).toEqual([
      { event: "token", token: "Half an answer" },
      { event: "token", token: " and the rest." },
      { event: "done", conversation_id: session.conversationId, discarded: true },
    ]);
    expect(await roles(session.conversationId)).toEqual(["visitor", "system"]);
    const published = t.published.slice(from).filter((event) => event.type === "message.created" && event.conversationId === session.conversationId);
    expect(published.map((event) => event.type === "message.created" && event.message.role)).toEqual(["visitor", "system"]);
  });

  it("concurrency: a reply generated across a takeover and a release is discarded too (the state changed since the question); the JSON answer says discarded", async () => {
    const gated = gatedGenerator();
    t.services.answers = gated.generator;
    const session = await visitor();
    const answering = post(session, "/messages", { message: "Do you ship abroad?" });
    await gated.started;
    await operator(session.conversationId, "assign");
    await operator(session.conversationId, "release");
    gated.release();
    const answer = await answering;
    expect(JSON.parse(answer.text).data).toEqual({
      message_id: expect.stringMatching(/^msg_/),
      conversation_id: session.conversationId,
      content: "",
      citations: [],
      low_confidence: false,
      discarded: true,
    });
    expect(await roles(session.conversationId)).toEqual(["visitor", "system", "system"]);

    // The next question is the bot's again.
    t.services.answers = originalAnswers;
    const next = JSON.parse((await post(session, "/messages", { message: "Do you ship abroad?" })).text).data;
    expect(next.discarded).toBeUndefined();
    expect(await roles(session.conversationId)).toEqual(["visitor", "system", "system", "visitor", "bot"]);
  });

  it("error: the /conversation routes need the session token (401) and count against its budget (429)", async () => {
    const limited = await createListeningTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "3" });
    try {
      const own = await seedTenant(limited.services);
      const init = await fetch(`http://127.0.0.1:${limited.port}${W}/init`, {
        method: "POST",
        headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ agent_id: own.agentId, page_url: `${SITE_ORIGIN}/` }),
      });
      const jwt = ((await init.json()) as { data: { jwt: string } }).data.jwt;
      const call = (method: string, path: string, headers: Record<string, string>) =>
        fetch(`http://127.0.0.1:${limited.port}${W}${path}`, { method, headers });
      for (const [method, path] of [["GET", "/conversation"], ["GET", "/conversation/messages"], ["POST", "/conversation/close"]] as const) {
        const response = await call(method, path, {});
        expect(response.status, path).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe("missing_token");
        expect((await call(method, path, bearer("garbage.token.here"))).status).toBe(401);
      }
      const statuses = [];
      for (const [method, path] of [["GET", "/conversation"], ["GET", "/conversation/messages"], ["POST", "/conversation/close"], ["GET", "/conversation"]] as const) {
        statuses.push((await call(method, path, bearer(jwt))).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
