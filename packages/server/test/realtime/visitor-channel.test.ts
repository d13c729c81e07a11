import Echo from "laravel-echo";
import type { Channel } from "pusher-js";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import type { Answer, ErrorBody, InitResponse } from "@frontdesk/contracts";
import { Pusher } from "../support/pusher-client.js";
import { bearer, SITE_ORIGIN, seedTenant, type Tenant } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";
import { connected, createListeningTestApp, signedPusherClient, until, type ListeningTestApp, type ReverbDescriptor, visitorPusher } from "../support/realtime-clients.js";

const AUTH = "/api/v1/widget/broadcasting/auth";

interface Visitor {
  jwt: string;
  conversationId: string;
  reverb: ReverbDescriptor;
}

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", reject);
  });
const nextEvent = (channel: Channel, event: string) => new Promise<unknown>((resolve) => channel.bind(event, resolve));

describeEachStore("the visitor's conversation channel, authorised by POST /broadcasting/auth, on %s", (kind) => {
  let t: ListeningTestApp;
  let tenant: Tenant;
  const clients: { disconnect(): void }[] = [];

  beforeAll(async () => {
    t = await createListeningTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "40" });
    tenant = await seedTenant(t.services);
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
    t.clock.offsetMs = 0;
  });
  afterAll(() => t.close());

  /** A new visitor, through init exactly as the widget calls it. */
  async function visitor(): Promise<Visitor> {
    const response = await fetch(`http://127.0.0.1:${t.port}/api/v1/widget/init`, {
      method: "POST",
      headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, new_conversation: true }),
    });
    const { data } = (await response.json()) as InitResponse;
    return { jwt: data.jwt, conversationId: data.conversation_id, reverb: data.reverb };
  }

  /** pusher-js as the widget configures it: init's reverb values, and the auth route with the session token. */
  function widgetPusher(session: Visitor): Pusher {
    const pusher = visitorPusher(session.reverb, `http://127.0.0.1:${t.port}`, session.jwt);
    clients.push(pusher);
    return pusher;
  }

  const post = (path: string, jwt: string, body: unknown = {}) =>
    fetch(`http://127.0.0.1:${t.port}/api/v1/widget${path}`, { method: "POST", headers: { ...bearer(jwt), "content-type": "application/json" }, body: JSON.stringify(body) });

  it("happy: pusher-js subscribes through the auth route and receives typing after POST /typing, conversation.updated after POST /request-human", async () => {
    const session = await visitor();
    const channel = widgetPusher(session).subscribe(`private-conversation.${session.conversationId}`);
    await subscribed(channel);
    const typing = nextEvent(channel, "typing");
    expect((await post("/typing", session.jwt, { typing: true })).status).toBe(204);
    expect(await typing).toEqual({ role: "visitor", typing: true, name: null });

    const operator = signedPusherClient(session.reverb, t.pusherServer);
    clients.push(operator);
    const workspace = operator.subscribe(`private-workspace.${tenant.workspaceId}`);
    await subscribed(workspace);
    const updated = nextEvent(channel, "conversation.updated");
    const requested = nextEvent(workspace, "human.requested");
    const response = await post("/request-human", session.jwt, { reason: "refund" });
    expect(response.status).toBe(200);
    const requestedAt = ((await response.json()) as { data: { human_requested_at: string | null } }).data.human_requested_at;
    expect(await updated).toEqual({ seq: 1, status: "awaiting_human", assignee: null, human_requested_at: requestedAt });
    expect(await requested).toEqual({ conversation_id: session.conversationId, agent_id: tenant.agentId, reason: "refund", requested_at: requestedAt, assigned_to: null });
  });

  it("happy: operators' workspace channel hears conversation.started after init, and both channels message.created for the visitor's and the bot's messages", async () => {
    const operator = signedPusherClient({ app_key: "frontdesk", host: "127.0.0.1", port: t.port, scheme: "ws" }, t.pusherServer);
    clients.push(operator);
    const workspace = operator.subscribe(`private-workspace.${tenant.workspaceId}`);
    await subscribed(workspace);
    const started = nextEvent(workspace, "conversation.started");
    const session = await visitor();
    expect(await started).toMatchObject({ conversation_id: session.conversationId, agent_id: tenant.agentId, visitor_id: expect.stringMatching(/\S/) });

    const conversation = widgetPusher(session).subscribe(`private-conversation.${session.conversationId}`);
    await subscribed(conversation);
    const onConversation: { role: string }[] = [];
    const onWorkspace: { role: string; conversation_id: string }[] = [];
    conversation.bind("message.created", (message: { role: string }) => onConversation.push(message));
    workspace.bind("message.created", (message: { role: string; conversation_id: string }) => onWorkspace.push(message));
    const answer = await post("/messages", session.jwt, { message: "Do you ship abroad?" });
    expect(answer.status).toBe(200);
    const answered = ((await answer.json()) as { data: Answer }).data;
    const botMessageId = answered.message_id;
    await until(() => onConversation.length === 2 && onWorkspace.length === 2);
    expect(onConversation.map((message) => message.role)).toEqual(["visitor", "bot"]);
    const unmarked = { code: null, curated_answer_id: null, author: null };
    expect(onConversation[0]).toEqual({ id: expect.any(String), seq: 1, role: "visitor", content: "Do you ship abroad?", citations: [], created_at: expect.any(String), ...unmarked });
    expect(onConversation[1]).toEqual({ id: botMessageId, seq: 2, role: "bot", content: answered.content, citations: answered.citations, created_at: expect.any(String), ...unmarked });
    expect(onWorkspace.every((message) => message.conversation_id === session.conversationId)).toBe(true);

    // seq goes on counting the conversation's events, and is stored with them; a repeated request takes none.
    const updated = nextEvent(conversation, "conversation.updated");
    await post("/request-human", session.jwt, {});
    expect(await updated).toMatchObject({ seq: 3, status: "awaiting_human" });
    await post("/request-human", session.jwt, { reason: "again" });
    const stored = await t.services.db.query<{ role: string; conversation_seq: number }>(
      `SELECT role, conversation_seq FROM messages WHERE conversation_id = $1 ORDER BY conversation_seq`,
      [session.conversationId],
    );
    // The transition's system message takes the seq after its conversation.updated.
    expect(stored.rows).toEqual([
      { role: "visitor", conversation_seq: 1 },
      { role: "bot", conversation_seq: 2 },
      { role: "system", conversation_seq: 4 },
    ]);
    const conversationRow = await t.services.db.query<{ event_seq: number; updated_seq: number }>(`SELECT event_seq, updated_seq FROM conversations WHERE id = $1`, [session.conversationId]);
    expect(conversationRow.rows).toEqual([{ event_seq: 4, updated_seq: 3 }]);
  });

  it("happy: laravel-echo (reverb broadcaster, authEndpoint and bearerToken) receives typing on the conversation channel", async () => {
    const session = await visitor();
    const echo = new Echo({
      broadcaster: "reverb",
      key: session.reverb.app_key,
      wsHost: session.reverb.host,
      wsPort: session.reverb.port,
      wssPort: session.reverb.port,
      forceTLS: session.reverb.scheme === "wss",
      enabledTransports: ["ws", "wss"],
      disableStats: true,
      authEndpoint: `http://127.0.0.1:${t.port}${AUTH}`,
      bearerToken: session.jwt,
      Pusher,
    } as never);
    clients.push(echo);
    const received: unknown[] = [];
    const channel = echo.private(`conversation.${session.conversationId}`);
    await new Promise<void>((resolve) => channel.subscribed(() => resolve()));
    channel.listen(".typing", (data: unknown) => received.push(data));
    await post("/typing", session.jwt, { typing: false });
    await until(() => received.length === 1);
    expect(received).toEqual([{ role: "visitor", typing: false, name: null }]);
  });

  it("security: another conversation's channel and the workspace channel are 403 channel_forbidden; pusher-js reports subscription_error 403", async () => {
    const [mine, theirs] = [await visitor(), await visitor()];
    for (const channel_name of [`private-conversation.${theirs.conversationId}`, `private-workspace.${tenant.workspaceId}`, `presence-operators.${tenant.workspaceId}`]) {
      const response = await post("/broadcasting/auth", mine.jwt, { socket_id: "1.2", channel_name });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: { code: "channel_forbidden", message: "A session token authorises only its own conversation's channel." } });
    }
    const channel = widgetPusher(mine).subscribe(`private-conversation.${theirs.conversationId}`);
    await expect(subscribed(channel)).rejects.toMatchObject({ type: "AuthError", status: 403 });
  });

  it("security: a signature for another conversation is refused by the server too (pusher:subscription_error)", async () => {
    const [mine, theirs] = [await visitor(), await visitor()];
    const pusher = widgetPusher(mine);
    await connected(pusher);
    const signedForMine = await post("/broadcasting/auth", mine.jwt, { socket_id: pusher.connection.socket_id, channel_name: `private-conversation.${mine.conversationId}` });
    const { auth } = (await signedForMine.json()) as { auth: string };
    const raw = pusher.subscribe(`private-conversation.${theirs.conversationId}`);
    // Replay my conversation's signature for theirs, bypassing the route.
    pusher.send_event("pusher:subscribe", { channel: `private-conversation.${theirs.conversationId}`, auth });
    await new Promise<void>((resolve) => raw.bind("pusher:subscription_error", (error: { status: number }) => error.status === 401 && resolve()));
  });

  it("error: an expired session token is 401 token_expired at the route, and pusher-js reports subscription_error 401", async () => {
    const session = await visitor();
    t.clock.offsetMs = 30 * 24 * 3_600_000;
    const response = await post("/broadcasting/auth", session.jwt, { socket_id: "1.2", channel_name: `private-conversation.${session.conversationId}` });
    expect(response.status).toBe(401);
    expect(((await response.json()) as ErrorBody).error.code).toBe("token_expired");
    const channel = widgetPusher(session).subscribe(`private-conversation.${session.conversationId}`);
    await expect(subscribed(channel)).rejects.toMatchObject({ status: 401 });
  });

  it("happy: form-encoded and JSON bodies both sign; a missing or malformed socket_id is 422", async () => {
    const session = await visitor();
    const channel_name = `private-conversation.${session.conversationId}`;
    const form = await fetch(`http://127.0.0.1:${t.port}${AUTH}`, {
      method: "POST",
      headers: { ...bearer(session.jwt), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ socket_id: "123.456", channel_name }).toString(),
    });
    const json = await post("/broadcasting/auth", session.jwt, { socket_id: "123.456", channel_name });
    const expected = t.pusherServer.authorizeChannel("123.456", channel_name);
    expect(await form.json()).toEqual(expected);
    expect(await json.json()).toEqual(expected);
    for (const body of [{ channel_name }, { socket_id: "abc", channel_name }, { socket_id: "1.2" }]) {
      const response = await post("/broadcasting/auth", session.jwt, body);
      expect(response.status).toBe(422);
      expect(((await response.json()) as ErrorBody).error.code).toBe("validation_failed");
    }
  });

  it("security: the route shares the session token's budget: authorisations count against POST /events", async () => {
    const session = await visitor();
    const channel_name = `private-conversation.${session.conversationId}`;
    let status = 200;
    let calls = 0;
    while (status === 200 && calls < 100) {
      status = (await post("/broadcasting/auth", session.jwt, { socket_id: "1.2", channel_name })).status;
      calls++;
    }
    expect({ status, calls }).toEqual({ status: 429, calls: 41 });
    const events = await post("/events", session.jwt, { event: "widget_opened" });
    expect(events.status).toBe(429);
  });
});
