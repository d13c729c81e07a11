import type { Channel } from "pusher-js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { CONSOLE, consoleChannelAuthorizer } from "../support/console-session.js";
import { bikeShopKnowledge, pushKnowledge } from "../support/knowledge.js";
import { Pusher } from "../support/pusher-client.js";
import { createListeningTestApp, pusherOptionsFor, type ListeningTestApp, type ReverbDescriptor, visitorPusher } from "../support/realtime-clients.js";
import { adminOf, SITE_ORIGIN, seedTenant, type Tenant } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";
const PASSWORD = "handlebar tangerine 42";

interface Heard {
  event: string;
  data: Record<string, unknown>;
}

/** Every event a channel delivers, in order, and a way to wait for the next matching one. */
function recorder(channel: Channel) {
  const heard: Heard[] = [];
  channel.bind_global((event: string, data: Record<string, unknown>) => {
    if (!event.startsWith("pusher")) heard.push({ event, data });
  });
  return {
    heard,
    async next(event: string, match: (data: Record<string, unknown>) => boolean = () => true, timeoutMs = 10_000): Promise<Record<string, unknown>> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = heard.find((item) => item.event === event && match(item.data));
        if (found) return found.data;
        if (Date.now() > deadline) throw new Error(`no ${event} within ${timeoutMs} ms; heard ${JSON.stringify(heard.map((item) => item.event))}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", (error: unknown) => reject(new Error(`subscription refused: ${JSON.stringify(error)}`)));
  });

/**
 * The whole loop of issue 10 with real clients, as a visitor's widget and an operator's console
 * would drive it: only HTTP requests and pusher-js, the operator signed in with a password.
 */
describeEachStore("a visitor's conversation taken over by an operator and handed back, live (%s)", (kind) => {
  let t: ListeningTestApp;
  let tenant: Tenant;
  const clients: Pusher[] = [];

  beforeAll(async () => {
    t = await createListeningTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "300" }, { workers: { allowPrivateNetworks: true } });
    tenant = await seedTenant(t.services);
    await pushKnowledge(t, tenant.workspaceId, tenant.agentId, bikeShopKnowledge);
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await t.close();
  });

  const url = (path: string) => `http://127.0.0.1:${t.port}${path}`;
  const origin = () => `http://127.0.0.1:${t.port}`;

  it("happy: ask → request a human → alerted operator signs in, takes over, types, replies → the bot stays quiet → released, the bot answers again", async () => {
    // The operator exists and has set a password (as the set-password link would).
    const operator = (await runAdminCommand(adminOf(t.services), {
      command: "operator.create",
      workspaceId: tenant.workspaceId,
      email: "ana@shop.example.com",
      name: "Ana",
      role: "agent",
    })) as { id: string };
    await runAdminCommand(adminOf(t.services), { command: "operator.set-password", operatorId: operator.id, password: PASSWORD });

    // A visitor inits and asks; the bot answers from the knowledge.
    const init = await fetch(url(`${W}/init`), {
      method: "POST",
      headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/bikes` }),
    });
    const session = ((await init.json()) as { data: { jwt: string; conversation_id: string; reverb: ReverbDescriptor } }).data;
    const visitorHeaders = { authorization: `Bearer ${session.jwt}`, origin: SITE_ORIGIN, "content-type": "application/json" };
    const ask = async (message: string) => {
      const response = await fetch(url(`${W}/messages`), { method: "POST", headers: visitorHeaders, body: JSON.stringify({ message }) });
      expect(response.status, await response.clone().text()).toBe(200);
      return ((await response.json()) as { data: Record<string, unknown> }).data;
    };
    const first = await ask("How long does a full battery charge take?");
    expect(first.awaiting_human).toBeUndefined();
    expect(String(first.content)).toMatch(/four hours/);

    // The visitor's widget listens on its conversation channel, authorised by the widget's auth route.
    const visitor = visitorPusher(session.reverb, url(""), session.jwt);
    clients.push(visitor);
    const visitorChannel = visitor.subscribe(`private-conversation.${session.conversation_id}`);
    const visitorHears = recorder(visitorChannel);
    await subscribed(visitorChannel);

    // The operator signs in with e-mail and password; the console's pusher-js joins the workspace channel.
    const signIn = await fetch(url(`${CONSOLE}/session`), {
      method: "POST",
      headers: { origin: origin(), "content-type": "application/json" },
      body: JSON.stringify({ email: "ANA@shop.example.com", password: PASSWORD }),
    });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    const cookie = signIn.headers.getSetCookie().map((value) => value.split(";")[0]).join("; ");
    const consoleHeaders = { cookie, origin: origin() };
    const operatorPusher = new Pusher(
      session.reverb.app_key,
      pusherOptionsFor(session.reverb, {
        channelAuthorization: { endpoint: url(`${CONSOLE}/broadcasting/auth`), transport: "ajax", customHandler: consoleChannelAuthorizer(url(`${CONSOLE}/broadcasting/auth`), consoleHeaders) },
      }),
    );
    clients.push(operatorPusher);
    const workspaceChannel = operatorPusher.subscribe(`private-workspace.${tenant.workspaceId}`);
    const operatorHears = recorder(workspaceChannel);
    await subscribed(workspaceChannel);
    await subscribed(operatorPusher.subscribe(`presence-operators.${tenant.workspaceId}`));

    // The visitor asks for a human: the operator is alerted live, in the inbox too, and is online.
    const requested = await fetch(url(`${W}/request-human`), { method: "POST", headers: visitorHeaders, body: JSON.stringify({ reason: "My battery is broken" }) });
    expect(requested.status).toBe(200);
    expect(((await requested.json()) as { data: Record<string, unknown> }).data).toMatchObject({ status: "awaiting_human", operators_online: true });
    expect(await operatorHears.next("human.requested")).toMatchObject({ conversation_id: session.conversation_id, reason: "My battery is broken" });
    const notification = await operatorHears.next("notification.created");
    expect(JSON.stringify(notification)).toContain(session.conversation_id);
    expect(await visitorHears.next("conversation.updated", (data) => data.status === "awaiting_human")).toMatchObject({ assignee: null });

    const consolePost = (path: string, body?: unknown) =>
      fetch(url(`${CONSOLE}${path}`), {
        method: "POST",
        headers: { ...consoleHeaders, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const inbox = (await (await fetch(url(`${CONSOLE}/notifications`), { headers: consoleHeaders })).json()) as { data: { conversation_id: string | null; read_at: string | null }[] };
    expect(inbox.data.some((item) => item.conversation_id === session.conversation_id && item.read_at === null)).toBe(true);

    // The operator takes over: the visitor sees the state change and Ana's arrival.
    expect((await consolePost(`/conversations/${session.conversation_id}/assign`)).status).toBe(200);
    expect(await visitorHears.next("conversation.updated", (data) => data.status === "human")).toMatchObject({ assignee: { name: "Ana" } });
    expect(await visitorHears.next("message.created", (data) => data.role === "system" && String(data.content).includes("Ana"))).toMatchObject({ seq: expect.any(Number) });

    // Ana types, then replies: the visitor's client hears both, the reply with Ana's name.
    expect((await consolePost(`/conversations/${session.conversation_id}/typing`, { typing: true })).status).toBeLessThan(300);
    expect(await visitorHears.next("typing", (data) => data.role === "operator")).toMatchObject({ typing: true, name: "Ana" });
    expect((await consolePost(`/conversations/${session.conversation_id}/messages`, { content: "I am sorry to hear that. Which model is it?" })).status).toBeLessThan(300);
    const reply = await visitorHears.next("message.created", (data) => data.role === "operator");
    expect(reply).toMatchObject({ content: "I am sorry to hear that. Which model is it?", author: { name: "Ana" }, seq: expect.any(Number) });

    // The visitor answers: it reaches the operator live, and the bot stays quiet.
    const quiet = await ask("It is the City e-bike from 2024. Do you ship abroad?");
    expect(quiet).toMatchObject({ awaiting_human: true, content: "" });
    expect(await operatorHears.next("message.created", (data) => data.role === "visitor" && String(data.content).includes("City e-bike"))).toMatchObject({
      conversation_id: session.conversation_id,
    });
    const { rows: whileHuman } = await t.services.db.query<{ role: string }>(
      `SELECT role FROM messages WHERE conversation_id = $1 AND conversation_seq > $2 ORDER BY conversation_seq`,
      [session.conversation_id, reply.seq as number],
    );
    expect(whileHuman.map((row) => row.role)).toEqual(["visitor"]);

    // Ana hands the conversation back: the visitor is told, and the bot answers the next question.
    expect((await consolePost(`/conversations/${session.conversation_id}/release`)).status).toBe(200);
    expect(await visitorHears.next("conversation.updated", (data) => data.status === "bot")).toMatchObject({ assignee: null });
    const back = await ask("When are refunds paid?");
    expect(back.awaiting_human).toBeUndefined();
    expect(String(back.content)).toMatch(/five working days/);
    expect(await visitorHears.next("message.created", (data) => data.id === back.message_id)).toMatchObject({ role: "bot", content: back.content });

    // Every event the visitor heard about this conversation came with a seq that only grows.
    const seqs = visitorHears.heard.filter((item) => typeof item.data.seq === "number").map((item) => item.data.seq as number);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  }, 120_000);
});
