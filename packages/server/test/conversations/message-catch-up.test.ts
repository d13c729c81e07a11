import type { ConsoleMessage, ConversationMessage } from "@frontdesk/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { insertMessage } from "../../src/conversations/message-repository.js";
import { listMessagesAfterSeq } from "../../src/conversations/message-listing-repository.js";
import { newId } from "../../src/db/ids.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { bearer, seedTenant, startSession, type StartedSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

/**
 * The one catch-up read behind GET /widget/conversation/messages and GET
 * /console/conversations/{id}/messages: messages stored before seqs existed (conversation_seq
 * null, migration 0005) come first from after_seq=0, in the order they were stored, then the
 * counted ones in seq order; never outside the workspace.
 */
describeEachStore("the catch-up of a conversation's messages on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let otherTenant: Tenant;
  let ana: ConsoleSession;
  let session: StartedSession;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "300" });
    tenant = await seedTenant(t.services);
    otherTenant = await seedTenant(t.services);
    ana = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
    session = await startSession(t.app, tenant.agentId);
    // Two messages as a store migrated from before 0005 holds them: no conversation_seq. The first
    // stored carries the later timestamp: the order is the order of storing, not the clock's.
    for (const [content, createdAt] of [
      ["legacy question", "2026-01-01T10:00:05Z"],
      ["legacy answer", "2026-01-01T10:00:00Z"],
    ] as const) {
      await t.services.db.query(`INSERT INTO messages (id, conversation_id, role, content, created_at) VALUES ($1, $2, $3, $4, $5)`, [
        newId("msg"),
        session.conversationId,
        content === "legacy question" ? "visitor" : "bot",
        content,
        createdAt,
      ]);
    }
    for (const content of ["q1", "q2", "q3"]) {
      await insertMessage(t.services.db, { conversationId: session.conversationId, role: "visitor", content });
    }
  });
  afterAll(() => t.close());

  const widget = async (query: string) => {
    const response = await t.app.inject({ method: "GET", url: `/api/v1/widget/conversation/messages?${query}`, headers: bearer(session.jwt) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { messages: ConversationMessage[]; has_more: boolean };
  };
  const consoleRead = async (query: string) => {
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${session.conversationId}/messages?${query}`, headers: ana.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { messages: ConsoleMessage[]; has_more: boolean };
  };
  const seqAndContent = (messages: { seq: number | null; content: string }[]) => messages.map((message) => [message.seq, message.content]);
  const everything = [
    [null, "legacy question"],
    [null, "legacy answer"],
    [1, "q1"],
    [2, "q2"],
    [3, "q3"],
  ];

  it("happy: from after_seq=0 the visitor gets the messages without seq first, in the order they were stored, then the counted ones", async () => {
    const all = await widget("after_seq=0");
    expect(seqAndContent(all.messages)).toEqual(everything);
    expect(all.has_more).toBe(false);
    expect(all.messages[0]).toEqual({
      id: expect.stringMatching(/^msg_/),
      seq: null,
      role: "visitor",
      content: "legacy question",
      code: null,
      citations: [],
      author: null,
      created_at: "2026-01-01T10:00:05.000Z",
    });
    expect(seqAndContent((await widget("")).messages)).toEqual(everything);
  });

  it("happy: the console's catch-up is the same list, in its own message shape", async () => {
    const all = await consoleRead("after_seq=0");
    expect(seqAndContent(all.messages)).toEqual(everything);
    expect(all.messages[1]).toMatchObject({ seq: null, role: "bot", content: "legacy answer", low_confidence: false, author: null });
  });

  it("happy: above a seq, the messages without one are left out; limit pages through the uncounted ones too", async () => {
    expect(seqAndContent((await widget("after_seq=1")).messages)).toEqual([
      [2, "q2"],
      [3, "q3"],
    ]);
    expect(seqAndContent((await consoleRead("after_seq=2")).messages)).toEqual([[3, "q3"]]);
    const firstPage = await widget("after_seq=0&limit=3");
    expect(seqAndContent(firstPage.messages)).toEqual(everything.slice(0, 3));
    expect(firstPage.has_more).toBe(true);
    expect(await widget("after_seq=3")).toEqual({ messages: [], has_more: false });
  });

  it("security: the read is scoped to the workspace: another workspace's id reads nothing, even with the conversation's own id", async () => {
    const scope = { conversationId: session.conversationId, afterSeq: 0, limit: 10 };
    expect((await listMessagesAfterSeq(t.services.db, { ...scope, workspaceId: tenant.workspaceId })).messages).toHaveLength(5);
    expect(await listMessagesAfterSeq(t.services.db, { ...scope, workspaceId: otherTenant.workspaceId })).toEqual({ messages: [], hasMore: false });
  });
});
