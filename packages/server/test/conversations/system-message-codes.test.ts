import { systemMessageCodes } from "@frontdesk/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { broadcastsOf } from "../../src/realtime/bus-channels.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { bearer, SITE_ORIGIN, seedTenant, startSession, type StartedSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";

/** A system message as each reader should carry it: its code, the English text older clients show, and who joined. */
type Expected = [code: string, content: string, author: string | null];

describeEachStore("system messages' stable codes on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let ana: ConsoleSession;
  let session: StartedSession;
  /** Every kind of system message, in the order one conversation goes through them. */
  const EXPECTED: Expected[] = [
    ["human_requested", "Waiting for a person to join", null],
    ["operator_joined", "Ana joined the conversation", "Ana"],
    ["bot_resumed", "The assistant is back", null],
    ["conversation_closed", "Conversation closed", null],
    ["conversation_reopened", "Conversation reopened", null],
  ];
  const systemOf = (messages: { role: string; code: string | null; content: string; author: { name: string } | null }[]): Expected[] =>
    messages.filter((message) => message.role === "system").map((message) => [message.code!, message.content, message.author?.name ?? null]);

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services);
    ana = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
    session = await startSession(t.app, tenant.agentId);
    const widget = (path: string, payload: Record<string, unknown> = {}) => t.app.inject({ method: "POST", url: `${W}${path}`, headers: bearer(session.jwt), payload });
    const console = (action: string) => t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${session.conversationId}/${action}`, headers: ana.headers, payload: {} });
    for (const step of [() => widget("/request-human"), () => console("assign"), () => console("release"), () => console("close"), () => widget("/messages", { message: "Back again" })]) {
      const response = await step();
      expect(response.statusCode, response.body).toBeLessThan(300);
    }
  });
  afterAll(() => t.close());

  it("happy: the service sends every code the contract lists, each kind once in this conversation, and stores it", async () => {
    expect(EXPECTED.map(([code]) => code)).toEqual([...systemMessageCodes]);
    const { rows } = await t.services.db.query<{ system_code: string | null; content: string; author_name: string | null; operator_id: string | null }>(
      `SELECT system_code, content, author_name, operator_id FROM messages WHERE conversation_id = $1 AND role = 'system' ORDER BY conversation_seq`,
      [session.conversationId],
    );
    expect(rows.map((row) => [row.system_code, row.content, row.author_name])).toEqual(EXPECTED);
    expect(rows[1]!.operator_id).toBe(ana.operator.id);
    // Only system messages have a code.
    const coded = await t.services.db.query<{ role: string }>(`SELECT DISTINCT role FROM messages WHERE conversation_id = $1 AND system_code IS NOT NULL`, [session.conversationId]);
    expect(coded.rows).toEqual([{ role: "system" }]);
  });

  it("happy: the widget's readers carry the code (init's messages and the catch-up); the other messages have code null", async () => {
    const caughtUp = await t.app.inject({ method: "GET", url: `${W}/conversation/messages?after_seq=0`, headers: bearer(session.jwt) });
    expect(caughtUp.statusCode, caughtUp.body).toBe(200);
    expect(systemOf(caughtUp.json().data.messages)).toEqual(EXPECTED);
    const others = caughtUp.json().data.messages.filter((message: { role: string }) => message.role !== "system");
    expect(others.length).toBeGreaterThan(0);
    expect(others.every((message: { code: unknown }) => message.code === null)).toBe(true);

    const init = await t.app.inject({
      method: "POST",
      url: `${W}/init`,
      headers: { origin: SITE_ORIGIN },
      payload: { agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, anon_id: session.anonymousId },
    });
    expect(init.json().data.conversation_id).toBe(session.conversationId);
    expect(systemOf(init.json().data.messages)).toEqual(EXPECTED);
  });

  it("happy: the console's readers carry the code (the conversation and its catch-up), the joined operator as author with their id", async () => {
    const shown = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${session.conversationId}`, headers: ana.headers });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(systemOf(shown.json().data.messages)).toEqual(EXPECTED);
    const caughtUp = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${session.conversationId}/messages?after_seq=0`, headers: ana.headers });
    expect(caughtUp.statusCode, caughtUp.body).toBe(200);
    expect(systemOf(caughtUp.json().data.messages)).toEqual(EXPECTED);
    expect(caughtUp.json().data.messages.find((message: { code: string | null }) => message.code === "operator_joined").author).toEqual({ id: ana.operator.id, name: "Ana" });
  });

  it("happy: message.created carries the code on the conversation's channel (the visitor) and the workspace's (the consoles)", () => {
    const published = t.published.filter((event) => event.type === "message.created" && event.conversationId === session.conversationId && event.message.role === "system");
    for (const channel of [`private-conversation.${session.conversationId}`, `private-workspace.${tenant.workspaceId}`]) {
      const payloads = published.flatMap((event) => broadcastsOf(event).filter((broadcast) => broadcast.channel === channel).map((broadcast) => broadcast.payload));
      expect(systemOf(payloads as Parameters<typeof systemOf>[0])).toEqual(EXPECTED);
    }
    const visitorMessage = t.published.find((event) => event.type === "message.created" && event.conversationId === session.conversationId && event.message.role === "visitor");
    expect(broadcastsOf(visitorMessage!)[0]!.payload).toMatchObject({ code: null, author: null });
  });
});
