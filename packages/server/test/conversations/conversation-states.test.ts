import { afterAll, beforeAll, expect, it } from "vitest";
import type { BusEvent } from "../../src/realtime/event-bus.js";
import { createSignedInOperator, CONSOLE, type ConsoleSession } from "../support/console-session.js";
import { createListeningTestApp, type ListeningTestApp } from "../support/realtime-clients.js";
import { bearer, SITE_ORIGIN, seedTenant, type StartedSession, type Tenant } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";

interface StoredRow {
  role: string;
  content: string;
  conversation_seq: number;
  operator_id: string | null;
  author_name: string | null;
}

describeEachStore("the conversation's states through the console's write routes on %s", (kind) => {
  let t: ListeningTestApp;
  let tenant: Tenant;
  let other: Tenant;
  let ana: ConsoleSession;
  let bob: ConsoleSession;
  let admin: ConsoleSession;
  let stranger: ConsoleSession;

  beforeAll(async () => {
    t = await createListeningTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "300" });
    tenant = await seedTenant(t.services);
    other = await seedTenant(t.services);
    ana = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
    bob = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Bob" });
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin", name: "Carla" });
    stranger = await createSignedInOperator(t, { workspaceId: other.workspaceId, role: "admin", name: "Dan" });
  });
  afterAll(() => t.close());

  const url = (path: string) => `http://127.0.0.1:${t.port}${path}`;

  /** A console call over real HTTP, as the console's page makes it (cookie and Origin). */
  async function consoleCall(session: ConsoleSession, conversationId: string, action: string, body?: unknown) {
    const response = await fetch(url(`${CONSOLE}/conversations/${conversationId}/${action}`), {
      method: "POST",
      headers: { ...session.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? null : (JSON.parse(text) as Record<string, any>) };
  }

  async function visitor(): Promise<StartedSession> {
    const response = await fetch(url(`${W}/init`), {
      method: "POST",
      headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, new_conversation: true }),
    });
    const { data } = (await response.json()) as { data: Record<string, string> };
    return { jwt: data.jwt!, conversationId: data.conversation_id!, visitorId: data.visitor_id!, anonymousId: data.anonymous_id! };
  }

  const widget = async (session: StartedSession, path: string, body: unknown = {}) => {
    const response = await fetch(url(`${W}${path}`), { method: "POST", headers: { ...bearer(session.jwt), "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  const stored = async (conversationId: string) =>
    (
      await t.services.db.query<StoredRow>(
        `SELECT role, content, conversation_seq, operator_id, author_name FROM messages WHERE conversation_id = $1 ORDER BY conversation_seq`,
        [conversationId],
      )
    ).rows;

  const conversationRow = async (conversationId: string) =>
    (
      await t.services.db.query<{ status: string; assignee_operator_id: string | null; event_seq: number; updated_seq: number | null; closed_by: string | null }>(
        `SELECT status, assignee_operator_id, event_seq, updated_seq, closed_by FROM conversations WHERE id = $1`,
        [conversationId],
      )
    ).rows[0]!;

  const eventsOf = (conversationId: string, from: number): BusEvent[] =>
    t.published.slice(from).filter((event) => "conversationId" in event && event.conversationId === conversationId);

  it("happy: request-human → assign → reply → release → close, each transition stored as a system message with the conversation's next seq and published after commit", async () => {
    const session = await visitor();
    const from = t.published.length;

    const requested = await widget(session, "/request-human", { reason: "refund" });
    expect(requested.status).toBe(200);
    expect(requested.body.data).toMatchObject({ status: "awaiting_human", reason: "refund", operators_online: false });

    const assigned = await consoleCall(ana, session.conversationId, "assign");
    expect(assigned.status).toBe(200);
    expect(assigned.body!.data).toEqual({
      id: session.conversationId,
      status: "human",
      assignee: { id: ana.operator.id, name: "Ana" },
      human_requested_at: requested.body.data.human_requested_at,
      updated_seq: 3,
    });

    const replied = await consoleCall(ana, session.conversationId, "messages", { content: "Hi, I'm Ana. Let me look at your refund." });
    expect(replied.status).toBe(201);
    expect(replied.body!.data).toEqual({
      id: expect.stringMatching(/^msg_/),
      seq: 5,
      role: "operator",
      content: "Hi, I'm Ana. Let me look at your refund.",
      citations: [],
      author: { id: ana.operator.id, name: "Ana" },
      created_at: expect.any(String),
    });

    const released = await consoleCall(ana, session.conversationId, "release");
    expect(released.status).toBe(200);
    expect(released.body!.data).toMatchObject({ status: "bot", assignee: null, human_requested_at: null, updated_seq: 6 });

    const closed = await consoleCall(bob, session.conversationId, "close");
    expect(closed.status).toBe(200);
    expect(closed.body!.data).toMatchObject({ status: "closed", assignee: null, updated_seq: 8 });

    expect(await stored(session.conversationId)).toEqual([
      { role: "system", content: "Waiting for a person to join", conversation_seq: 2, operator_id: null, author_name: null },
      // The operator who joined is the system message's author (the name its code's text needs).
      { role: "system", content: "Ana joined the conversation", conversation_seq: 4, operator_id: ana.operator.id, author_name: "Ana" },
      { role: "operator", content: "Hi, I'm Ana. Let me look at your refund.", conversation_seq: 5, operator_id: ana.operator.id, author_name: "Ana" },
      { role: "system", content: "The assistant is back", conversation_seq: 7, operator_id: null, author_name: null },
      { role: "system", content: "Conversation closed", conversation_seq: 9, operator_id: null, author_name: null },
    ]);
    expect(await conversationRow(session.conversationId)).toEqual({ status: "closed", assignee_operator_id: null, event_seq: 9, updated_seq: 8, closed_by: "operator" });

    // Published in seq order: each transition's conversation.updated, then its system message.
    const sequenced = eventsOf(session.conversationId, from).flatMap((event) => {
      if (event.type === "conversation.updated") return [{ seq: event.seq, what: `updated:${event.status}:${event.assignee?.name ?? "-"}` }];
      if (event.type === "message.created") return [{ seq: event.message.seq, what: `${event.message.role}:${event.author?.name ?? "-"}` }];
      return [];
    });
    expect(sequenced).toEqual([
      { seq: 1, what: "updated:awaiting_human:-" },
      { seq: 2, what: "system:-" },
      { seq: 3, what: "updated:human:Ana" },
      { seq: 4, what: "system:Ana" },
      { seq: 5, what: "operator:Ana" },
      { seq: 6, what: "updated:bot:-" },
      { seq: 7, what: "system:-" },
      { seq: 8, what: "updated:closed:-" },
      { seq: 9, what: "system:-" },
    ]);
  });

  it("concurrency: two operators taking over at the same moment over real HTTP: exactly one wins, the other gets 409 conversation_taken", async () => {
    for (let round = 0; round < 5; round += 1) {
      const session = await visitor();
      await widget(session, "/request-human", {});
      const [first, second] = await Promise.all([consoleCall(ana, session.conversationId, "assign"), consoleCall(bob, session.conversationId, "assign")]);
      const statuses = [first.status, second.status].sort();
      expect(statuses).toEqual([200, 409]);
      const winner = first.status === 200 ? ana : bob;
      const loser = first.status === 200 ? second : first;
      expect(loser.body!.error.code).toBe("conversation_taken");
      expect(loser.body!.error.message).toContain(winner.operator.name);
      expect((await conversationRow(session.conversationId)).assignee_operator_id).toBe(winner.operator.id);
      const joined = (await stored(session.conversationId)).filter((row) => row.content.endsWith("joined the conversation"));
      expect(joined.map((row) => row.content)).toEqual([`${winner.operator.name} joined the conversation`]);
    }
  });

  it("happy: an operator may take over a bot conversation without a request; assigning it to its assignee again changes nothing", async () => {
    const session = await visitor();
    const first = await consoleCall(bob, session.conversationId, "assign", {});
    expect(first.body!.data).toMatchObject({ status: "human", assignee: { id: bob.operator.id, name: "Bob" }, human_requested_at: null, updated_seq: 1 });
    const again = await consoleCall(bob, session.conversationId, "assign", { operator_id: bob.operator.id });
    expect(again.status).toBe(200);
    expect(again.body!.data.updated_seq).toBe(1);
    expect((await stored(session.conversationId)).map((row) => row.content)).toEqual(["Bob joined the conversation"]);
    // request-human while an operator has it changes nothing.
    const requested = await widget(session, "/request-human", { reason: "hello?" });
    expect(requested.body.data).toMatchObject({ status: "human", human_requested_at: null });
    expect((await conversationRow(session.conversationId)).updated_seq).toBe(1);
  });

  it("happy: an admin assigns another operator, and hands a taken conversation over; an agent may not", async () => {
    const session = await visitor();
    const toAna = await consoleCall(admin, session.conversationId, "assign", { operator_id: ana.operator.id });
    expect(toAna.status).toBe(200);
    expect(toAna.body!.data.assignee).toEqual({ id: ana.operator.id, name: "Ana" });
    const byAgent = await consoleCall(bob, session.conversationId, "assign", { operator_id: bob.operator.id });
    expect(byAgent.status).toBe(409);
    expect(byAgent.body!.error.code).toBe("conversation_taken");
    const agentForOther = await consoleCall(bob, session.conversationId, "assign", { operator_id: admin.operator.id });
    expect(agentForOther.status).toBe(403);
    expect(agentForOther.body!.error.code).toBe("forbidden");
    const toBob = await consoleCall(admin, session.conversationId, "assign", { operator_id: bob.operator.id });
    expect(toBob.body!.data.assignee).toEqual({ id: bob.operator.id, name: "Bob" });
    expect((await stored(session.conversationId)).map((row) => row.content)).toEqual(["Ana joined the conversation", "Bob joined the conversation"]);
  });

  it("error: an admin assigning an unknown operator or another workspace's is 404 operator_not_found", async () => {
    const session = await visitor();
    for (const operatorId of ["op_unknown", stranger.operator.id]) {
      const response = await consoleCall(admin, session.conversationId, "assign", { operator_id: operatorId });
      expect(response.status).toBe(404);
      expect(response.body!.error.code).toBe("operator_not_found");
    }
    expect((await conversationRow(session.conversationId)).status).toBe("bot");
  });

  it("error: only the assignee replies (409 not_assignee), a closed conversation is 409 conversation_closed, a blank reply 422", async () => {
    const session = await visitor();
    const before = await consoleCall(ana, session.conversationId, "messages", { content: "Hello" });
    expect(before.status).toBe(409);
    expect(before.body!.error.code).toBe("not_assignee");
    await consoleCall(ana, session.conversationId, "assign");
    const notMine = await consoleCall(bob, session.conversationId, "messages", { content: "Hello" });
    expect(notMine.status).toBe(409);
    expect(notMine.body!.error).toMatchObject({ code: "not_assignee", message: expect.stringContaining("Ana") });
    const adminToo = await consoleCall(admin, session.conversationId, "messages", { content: "Hello" });
    expect(adminToo.body!.error.code).toBe("not_assignee");
    for (const content of ["", "   "]) {
      const blank = await consoleCall(ana, session.conversationId, "messages", { content });
      expect(blank.status).toBe(422);
      expect(blank.body!.error.fields).toHaveProperty("content");
    }
    expect((await consoleCall(ana, session.conversationId, "messages", {})).status).toBe(422);
    await consoleCall(ana, session.conversationId, "close");
    const closed = await consoleCall(ana, session.conversationId, "messages", { content: "Hello" });
    expect(closed.status).toBe(409);
    expect(closed.body!.error.code).toBe("conversation_closed");
    const assignClosed = await consoleCall(bob, session.conversationId, "assign");
    expect(assignClosed.status).toBe(409);
    expect(assignClosed.body!.error.code).toBe("conversation_closed");
    expect((await stored(session.conversationId)).filter((row) => row.role === "operator")).toEqual([]);
  });

  it("error: release is the assignee's or an admin's (409 not_assignee), and only of a conversation taken over (409 invalid_transition)", async () => {
    const session = await visitor();
    const notTaken = await consoleCall(ana, session.conversationId, "release");
    expect(notTaken.status).toBe(409);
    expect(notTaken.body!.error.code).toBe("invalid_transition");
    await consoleCall(ana, session.conversationId, "assign");
    const byBob = await consoleCall(bob, session.conversationId, "release");
    expect(byBob.status).toBe(409);
    expect(byBob.body!.error.code).toBe("not_assignee");
    const byAdmin = await consoleCall(admin, session.conversationId, "release");
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body!.data).toMatchObject({ status: "bot", assignee: null });
  });

  it("happy: the visitor's messages while a human has the conversation are stored and published, and the bot stays quiet; after release it answers again", async () => {
    const session = await visitor();
    await consoleCall(ana, session.conversationId, "assign");
    const from = t.published.length;
    const quiet = await widget(session, "/messages", { message: "Do you ship abroad?" });
    expect(quiet.status).toBe(200);
    expect(quiet.body.data).toMatchObject({ content: "", awaiting_human: true });
    const created = eventsOf(session.conversationId, from).filter((event) => event.type === "message.created");
    expect(created.map((event) => event.type === "message.created" && event.message.role)).toEqual(["visitor"]);

    await consoleCall(ana, session.conversationId, "release");
    const answered = await widget(session, "/messages", { message: "Do you ship abroad?" });
    expect(answered.body.data.awaiting_human).toBeUndefined();
    expect(answered.body.data.content).not.toBe("");
    expect((await stored(session.conversationId)).map((row) => row.role)).toEqual(["system", "visitor", "system", "visitor", "bot"]);
  });

  it("happy: close from any open state; closing again stores nothing; a visitor message reopens it in bot and the bot answers", async () => {
    for (const setUp of ["bot", "awaiting_human", "human"] as const) {
      const session = await visitor();
      if (setUp !== "bot") await widget(session, "/request-human", {});
      if (setUp === "human") await consoleCall(ana, session.conversationId, "assign");
      const closed = await consoleCall(bob, session.conversationId, "close");
      expect(closed.status).toBe(200);
      expect(closed.body!.data.status).toBe("closed");
      const count = (await stored(session.conversationId)).length;
      const again = await consoleCall(admin, session.conversationId, "close");
      expect(again.status).toBe(200);
      expect(again.body!.data.updated_seq).toBe(closed.body!.data.updated_seq);
      expect(await stored(session.conversationId)).toHaveLength(count);
    }

    const session = await visitor();
    await consoleCall(ana, session.conversationId, "assign");
    await consoleCall(ana, session.conversationId, "close");
    const from = t.published.length;
    const answered = await widget(session, "/messages", { message: "Do you ship abroad?" });
    expect(answered.body.data.awaiting_human).toBeUndefined();
    expect(answered.body.data.content).not.toBe("");
    const rows = await stored(session.conversationId);
    expect(rows.slice(-3).map((row) => [row.role, row.content.slice(0, 21), row.conversation_seq])).toEqual([
      ["system", "Conversation reopened", 6],
      ["visitor", "Do you ship abroad?", 7],
      ["bot", answered.body.data.content.slice(0, 21), 8],
    ]);
    expect(await conversationRow(session.conversationId)).toMatchObject({ status: "bot", assignee_operator_id: null, updated_seq: 5, closed_by: null });
    const updated = eventsOf(session.conversationId, from).find((event) => event.type === "conversation.updated");
    expect(updated).toMatchObject({ seq: 5, status: "bot", assignee: null });
  });

  it("happy: the assignee's typing is published as the operator's, with their name; anyone else is 409 not_assignee", async () => {
    const session = await visitor();
    const early = await consoleCall(ana, session.conversationId, "typing", { typing: true });
    expect(early.status).toBe(409);
    await consoleCall(ana, session.conversationId, "assign");
    const from = t.published.length;
    expect((await consoleCall(ana, session.conversationId, "typing", { typing: true })).status).toBe(204);
    expect((await consoleCall(ana, session.conversationId, "typing")).status).toBe(204);
    expect((await consoleCall(ana, session.conversationId, "typing", { typing: false })).status).toBe(204);
    const notMine = await consoleCall(bob, session.conversationId, "typing", { typing: true });
    expect(notMine.status).toBe(409);
    expect(notMine.body!.error.code).toBe("not_assignee");
    expect((await consoleCall(ana, session.conversationId, "typing", { typing: "yes" })).status).toBe(422);
    const typing = eventsOf(session.conversationId, from).filter((event) => event.type === "operator.typing");
    expect(typing).toEqual([true, true, false].map((flag) => expect.objectContaining({ typing: flag, operator: { id: ana.operator.id, name: "Ana" } })));
  });

  it("security: another workspace's conversation is 404 conversation_not_found on every route, and nothing changes", async () => {
    const session = await visitor();
    await widget(session, "/request-human", {});
    for (const [action, body] of [["assign", {}], ["messages", { content: "hi" }], ["release", undefined], ["close", undefined], ["typing", { typing: true }]] as const) {
      const response = await consoleCall(stranger, session.conversationId, action, body);
      expect(response.status, action).toBe(404);
      expect(response.body!.error.code).toBe("conversation_not_found");
    }
    for (const id of ["cnv_unknown", "x".repeat(64)]) expect((await consoleCall(ana, id, "assign")).status).toBe(404);
    expect((await consoleCall(ana, "not an id!", "assign")).status).toBe(422);
    expect(await conversationRow(session.conversationId)).toMatchObject({ status: "awaiting_human", assignee_operator_id: null });
  });

  it("security: without a session cookie 401 unauthenticated; without the public URL's Origin 403 csrf_origin_mismatch", async () => {
    const session = await visitor();
    const anonymous = await fetch(url(`${CONSOLE}/conversations/${session.conversationId}/assign`), { method: "POST", headers: { origin: ana.headers.origin } });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
    const withoutPublicOrigin: Record<string, string>[] = [{ cookie: ana.headers.cookie }, { cookie: ana.headers.cookie, origin: "https://evil.example" }];
    for (const headers of withoutPublicOrigin) {
      const response = await fetch(url(`${CONSOLE}/conversations/${session.conversationId}/assign`), { method: "POST", headers });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("csrf_origin_mismatch");
    }
    expect((await conversationRow(session.conversationId)).status).toBe("bot");
  });

  it("happy: a removed assignee leaves the conversation human without an assignee, which anyone may take over", async () => {
    const session = await visitor();
    const gone = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Eve" });
    await consoleCall(gone, session.conversationId, "assign");
    await t.services.db.query(`DELETE FROM operators WHERE id = $1`, [gone.operator.id]);
    const state = await fetch(url(`${W}/conversation`), { headers: bearer(session.jwt) });
    expect(((await state.json()) as { data: unknown }).data).toMatchObject({ status: "human", assignee: null });
    const taken = await consoleCall(bob, session.conversationId, "assign");
    expect(taken.status).toBe(200);
    expect(taken.body!.data.assignee).toEqual({ id: bob.operator.id, name: "Bob" });
  });
});
