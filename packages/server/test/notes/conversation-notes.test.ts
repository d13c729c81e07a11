import { conversationDetailResponseSchema, conversationNoteResponseSchema } from "@frontdesk/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { broadcastsOf } from "../../src/realtime/bus-channels.js";
import { busEventsOf } from "../../src/realtime/bus-events-of-domain-events.js";
import { webhookEventOf } from "../../src/webhooks/webhook-events.js";
import { CONSOLE, type ConsoleSession, createSignedInOperator, seedConsoleCast } from "../support/console-session.js";
import { bearer, SITE_ORIGIN, startSession, type StartedSession } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";

describeEachStore("internal notes in a conversation, for operators only, on %s", (kind) => {
  let t: TestApp;
  let cast: Awaited<ReturnType<typeof seedConsoleCast>>;
  let marta: ConsoleSession;
  let martin: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000" });
    cast = await seedConsoleCast(t, { admin: "Ana Lopez", agentOperator: "Bruno Diaz", outsider: "Ana Outsider" });
    // Two operators sharing a first name: "@Mart…" must name one of them in full.
    marta = await createSignedInOperator(t, { workspaceId: cast.tenant.workspaceId, role: "agent", name: "Marta Ruiz" });
    martin = await createSignedInOperator(t, { workspaceId: cast.tenant.workspaceId, role: "agent", name: "Marta Gil" });
  }, 120_000);
  afterAll(() => t.close());

  const note = (conversationId: string, content: unknown, headers: Record<string, string> = cast.agentOperator.headers) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${conversationId}/notes`, headers, payload: { content } as Record<string, unknown> });
  const detail = async (conversationId: string, headers: Record<string, string> = cast.admin.headers) => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${conversationId}`, headers });
    expect(response.statusCode, response.body).toBe(200);
    return conversationDetailResponseSchema.parse(response.json()).data;
  };
  const ask = async (session: StartedSession, message: string) => {
    const response = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message } });
    expect(response.statusCode, response.body).toBe(200);
  };
  const inboxOf = async (session: ConsoleSession) => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/notifications`, headers: session.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { kind: string; conversation_id: string | null; payload: Record<string, unknown> }[];
  };

  it("happy: any operator notes any conversation (no take-over needed); the detail interleaves it after the message it followed", async () => {
    const visitor = await startSession(t.app, cast.tenant.agentId);
    await ask(visitor, "Where is my parcel?");
    const before = await detail(visitor.conversationId);
    const written = await note(visitor.conversationId, "Customer called twice already, be gentle.");
    expect(written.statusCode, written.body).toBe(201);
    const stored = conversationNoteResponseSchema.parse(written.json()).data;
    expect(stored).toMatchObject({
      id: expect.stringMatching(/^note_/),
      conversation_id: visitor.conversationId,
      content: "Customer called twice already, be gentle.",
      author: { id: cast.agentOperator.operator.id, name: "Bruno Diaz" },
      mentions: [],
      after_seq: before.seq,
    });
    await ask(visitor, "Hello?");
    const after = await detail(visitor.conversationId);
    expect(after.notes).toEqual([stored]);
    // The note sits between the messages up to its after_seq and those after it; it is not a message.
    expect(after.messages.some((message) => message.content.includes("be gentle"))).toBe(false);
    expect(after.messages.filter((message) => message.seq !== null && message.seq > stored.after_seq).map((message) => message.role)).toContain("visitor");
    const listed = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${visitor.conversationId}/notes`, headers: cast.admin.headers });
    expect(listed.json()).toEqual({ data: [stored] });
    // Told live on the workspace's channel only.
    const published = t.published.filter((event) => event.type === "note.created");
    expect(published.at(-1)).toMatchObject({ conversationId: visitor.conversationId, note: { id: stored.id } });
  });

  it("happy: @mentions notify the named operators in their inbox (full name, or a first name only one has), never the author or another workspace", async () => {
    const visitor = await startSession(t.app, cast.tenant.agentId);
    const written = await note(
      visitor.conversationId,
      "@ana can you check the refund? cc @Marta Gil, @Marta (ambiguous), @Bruno Diaz (me), @Ana Outsider, email@Bruno",
    );
    expect(written.statusCode, written.body).toBe(201);
    expect(written.json().data.mentions).toEqual([
      { id: cast.admin.operator.id, name: "Ana Lopez" },
      { id: martin.operator.id, name: "Marta Gil" },
    ]);
    const adminInbox = await inboxOf(cast.admin);
    expect(adminInbox[0]).toMatchObject({
      kind: "note.mentioned",
      conversation_id: visitor.conversationId,
      payload: { note_id: written.json().data.id, author: { id: cast.agentOperator.operator.id, name: "Bruno Diaz" }, excerpt: expect.stringContaining("@ana can you") },
    });
    expect((await inboxOf(martin)).filter((entry) => entry.kind === "note.mentioned")).toHaveLength(1);
    for (const unmentioned of [marta, cast.agentOperator, cast.outsider]) {
      expect((await inboxOf(unmentioned)).filter((entry) => entry.conversation_id === visitor.conversationId)).toEqual([]);
    }
    const announced = t.published.filter((event) => event.type === "notification.created" && event.kind === "note.mentioned").at(-1);
    expect(announced).toMatchObject({ workspaceId: cast.tenant.workspaceId, notifications: expect.arrayContaining([expect.objectContaining({ operatorId: cast.admin.operator.id })]) });
  });

  it("error: a blank, oversized or missing content is 422; an unknown or another workspace's conversation is 404; no session 401, a foreign Origin 403", async () => {
    const visitor = await startSession(t.app, cast.tenant.agentId);
    for (const content of ["   ", "x".repeat(4001), 12, null]) {
      const refused = await note(visitor.conversationId, content);
      expect(refused.statusCode, String(content)).toBe(422);
      expect(refused.json().error).toMatchObject({ code: "validation_failed", fields: { content: expect.any(Array) } });
    }
    expect((await note("cnv_unknown", "hello")).json().error.code).toBe("conversation_not_found");
    const foreign = await note(visitor.conversationId, "peeking", cast.outsider.headers);
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${visitor.conversationId}/notes`, headers: cast.outsider.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: "POST", url: `${CONSOLE}/conversations/${visitor.conversationId}/notes`, payload: { content: "x" } })).statusCode).toBe(401);
    const crossSite = await note(visitor.conversationId, "x", { cookie: cast.agentOperator.headers.cookie, origin: "https://evil.example" });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().error.code).toBe("csrf_origin_mismatch");
    expect((await detail(visitor.conversationId)).notes).toEqual([]);
  });

  it("security: a note never reaches the widget API: not the history, the catch-up, the resumed conversation nor the state", async () => {
    const secret = `secret-note-${Math.random().toString(36).slice(2)}`;
    const visitor = await startSession(t.app, cast.tenant.agentId);
    await ask(visitor, "I need help with my order");
    expect((await note(visitor.conversationId, `${secret} @Ana Lopez`)).statusCode).toBe(201);
    await ask(visitor, "Still there?");
    const reads = [
      await t.app.inject({ method: "GET", url: `${W}/conversation`, headers: bearer(visitor.jwt) }),
      await t.app.inject({ method: "GET", url: `${W}/conversation/messages?after_seq=0`, headers: bearer(visitor.jwt) }),
      await t.app.inject({ method: "POST", url: `${W}/init`, headers: { origin: SITE_ORIGIN }, payload: { agent_id: cast.tenant.agentId, page_url: `${SITE_ORIGIN}/`, anon_id: visitor.anonymousId } }),
    ];
    for (const read of reads) {
      expect(read.statusCode, read.body).toBe(200);
      expect(read.body).not.toContain(secret);
      expect(read.body).not.toContain("note_");
    }
    // The history is there (the visitor's two messages), the note is not.
    const history = reads[1]!.json().data.messages as { role: string; content: string }[];
    expect(history.filter((message) => message.role === "visitor").map((message) => message.content)).toEqual(["I need help with my order", "Still there?"]);
    expect(reads[2]!.json().data.conversation_id).toBe(visitor.conversationId);
  });

  it("security: a note is never published on the conversation's channel (the visitor's), only on the workspace's, nor to webhooks", async () => {
    const secret = `channel-secret-${Math.random().toString(36).slice(2)}`;
    const visitor = await startSession(t.app, cast.tenant.agentId);
    const from = t.published.length;
    expect((await note(visitor.conversationId, `${secret} @Ana Lopez`)).statusCode).toBe(201);
    const broadcasts = t.published.slice(from).flatMap(broadcastsOf);
    expect(broadcasts.length).toBeGreaterThan(0);
    expect(broadcasts.filter((broadcast) => JSON.stringify(broadcast).includes(secret)).map((broadcast) => broadcast.channel)).toEqual([`private-workspace.${cast.tenant.workspaceId}`]);
    expect(broadcasts.some((broadcast) => broadcast.channel.includes(visitor.conversationId))).toBe(false);
    // The mapping itself: whatever a note.added carries, nothing goes to a conversation channel.
    const added = {
      type: "note.added",
      conversation: { workspaceId: "ws_x", agentId: "agt_x", conversationId: "cnv_x", visitorId: "vis_x" },
      note: { id: "note_x", content: "x", author: { id: "op_x", name: "X" }, afterSeq: 1, createdAt: new Date().toISOString() },
      mentioned: [{ operatorId: "op_y", name: "Y", notificationId: "ntf_y" }],
    } as const;
    const mapped = busEventsOf({ ...added, mentioned: [...added.mentioned] }).flatMap(broadcastsOf);
    expect(mapped.map((broadcast) => broadcast.channel)).toEqual(["private-workspace.ws_x", "private-workspace.ws_x"]);
    // Webhooks go to the site owner's systems, outside the console: a note is not one of their events.
    expect(webhookEventOf({ ...added, mentioned: [...added.mentioned] })).toBeNull();
  });

  it("security: the visitor's data export holds no note; erasing the visitor deletes their conversations' notes", async () => {
    const secret = `export-secret-${Math.random().toString(36).slice(2)}`;
    const visitor = await startSession(t.app, cast.tenant.agentId);
    await ask(visitor, "Please export my data");
    expect((await note(visitor.conversationId, secret)).statusCode).toBe(201);
    const exported = await t.app.inject({ method: "GET", url: `${CONSOLE}/visitors/${visitor.visitorId}/export`, headers: cast.admin.headers });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.body).toContain("Please export my data");
    expect(exported.body).not.toContain(secret);

    const erased = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/visitors/${visitor.visitorId}`, headers: cast.admin.headers });
    expect(erased.statusCode, erased.body).toBe(204);
    const { rows } = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM conversation_notes WHERE conversation_id = $1 OR content = $2`, [visitor.conversationId, secret]);
    expect(rows[0]!.n).toBe(0);
  });
});
