import { afterAll, beforeAll, expect, it } from "vitest";
import { CONSOLE, type ConsoleSession, seedConsoleCast } from "../support/console-session.js";
import { bikeShopKnowledge, pushKnowledge } from "../support/knowledge.js";
import { bearer, SITE_ORIGIN, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { broadcastsOf } from "../../src/realtime/bus-channels.js";

const W = "/api/v1/widget";

/** The JSON frames of an SSE body, read with a real SSE parser. */
function sseFrames(body: string): Record<string, unknown>[] {
  const frames: Record<string, unknown>[] = [];
  const parser = createParser({ onEvent: (event: EventSourceMessage) => frames.push(JSON.parse(event.data) as Record<string, unknown>) });
  parser.feed(body);
  return frames;
}
const CURATED_ANSWER = "Delivery to Scotland takes four working days; the Highlands and islands add one more.";
const SOURCE = "https://shop.example.com/help/scotland";

describeEachStore("curated answers on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentOperator: ConsoleSession;
  let outsider: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000" }, { workers: { allowPrivateNetworks: true } });
    ({ tenant, other, admin, agentOperator, outsider } = await seedConsoleCast(t));
    await pushKnowledge(t, tenant.workspaceId, tenant.agentId, bikeShopKnowledge);
  });
  afterAll(() => t.close());

  const ask = async (message: string, path = "/messages") => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await t.app.inject({ method: "POST", url: `${W}${path}`, headers: bearer(session.jwt), payload: { message } });
    expect(response.statusCode).toBe(200);
    return { session, response };
  };
  const storedReply = async (conversationId: string) => {
    const { rows } = await t.services.db.query<{ id: string; content: string; citations: unknown; low_confidence: boolean; generator: string | null; curated_answer_id: string | null }>(
      `SELECT id, content, citations, low_confidence, generator, curated_answer_id FROM messages WHERE conversation_id = $1 AND role = 'bot' ORDER BY seq`,
      [conversationId],
    );
    expect(rows).toHaveLength(1);
    return rows[0]!;
  };
  const post = (session: ConsoleSession, payload: Record<string, unknown>) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/curated-answers`, headers: session.headers, payload });

  it("happy: 'Fix this answer' on a bot reply curates the visitor's question; the next similar question gets the answer, stored as curated", async () => {
    const first = await ask("How long does delivery to Scotland take?");
    const wrong = await storedReply(first.session.conversationId);
    expect(wrong.curated_answer_id).toBeNull();

    const created = await post(admin, { message_id: wrong.id, answer: CURATED_ANSWER, source_url: SOURCE });
    expect(created.statusCode).toBe(201);
    const curated = created.json().data;
    // The workspace's consoles hear it.
    const announced = t.published.filter((event) => event.type === "curated_answer.updated").at(-1);
    expect(broadcastsOf(announced!)).toEqual([
      {
        channel: `private-workspace.${tenant.workspaceId}`,
        event: "curated_answer.updated",
        payload: { curated_answer_id: curated.id, agent_id: tenant.agentId, deleted: false },
      },
    ]);
    expect(curated).toMatchObject({
      id: expect.stringMatching(/^cur_/),
      agent_id: tenant.agentId,
      question: "How long does delivery to Scotland take?",
      answer: CURATED_ANSWER,
      source_url: SOURCE,
      created_by: admin.operator.id,
    });

    // A rewording, over the JSON route.
    const again = await ask("how long will delivery take to scotland");
    const data = again.response.json().data;
    expect(data).toMatchObject({ content: CURATED_ANSWER, citations: [{ id: 1, url: SOURCE }], low_confidence: false, curated: true });
    const stored = await storedReply(again.session.conversationId);
    expect(stored).toMatchObject({ id: data.message_id, content: CURATED_ANSWER, low_confidence: false, generator: "curated", curated_answer_id: curated.id });

    // The console's message shape says it is curated.
    const shown = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${again.session.conversationId}`, headers: agentOperator.headers });
    expect(shown.statusCode).toBe(200);
    const messages = shown.json().data.messages as { id: string; curated_answer_id: string | null }[];
    expect(messages.find((message) => message.id === data.message_id)?.curated_answer_id).toBe(curated.id);
    const since = await t.app.inject({ method: "GET", url: `${CONSOLE}/conversations/${again.session.conversationId}/messages?after_seq=0`, headers: agentOperator.headers });
    expect((since.json().data.messages as { role: string; curated_answer_id: string | null }[]).map((message) => [message.role, message.curated_answer_id])).toEqual([
      ["visitor", null],
      ["bot", curated.id],
    ]);

    // Every reader of the message says it is curated: the widget's catch-up read, its resumed init,
    // and the live message.created on the conversation's and the workspace's channels.
    const widgetMessages = await t.app.inject({ method: "GET", url: `${W}/conversation/messages?after_seq=0`, headers: bearer(again.session.jwt) });
    expect((widgetMessages.json().data.messages as { role: string; curated?: boolean }[]).map((message) => [message.role, message.curated])).toEqual([
      ["visitor", undefined],
      ["bot", true],
    ]);
    const resumed = await t.app.inject({
      method: "POST",
      url: `${W}/init`,
      headers: { origin: SITE_ORIGIN },
      payload: { agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, anon_id: again.session.anonymousId },
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().data.conversation_id).toBe(again.session.conversationId);
    expect((resumed.json().data.messages as { role: string; curated?: boolean }[]).map((message) => [message.role, message.curated])).toEqual([
      ["visitor", undefined],
      ["bot", true],
    ]);
    const live = t.published.find((event) => event.type === "message.created" && event.message.id === data.message_id);
    expect(broadcastsOf(live!).map((broadcast) => [broadcast.channel, broadcast.payload.curated_answer_id])).toEqual([
      [`private-conversation.${again.session.conversationId}`, curated.id],
      [`private-workspace.${tenant.workspaceId}`, curated.id],
    ]);

    // Streamed like any answer.
    const streamed = await ask("How long does delivery take to Scotland?", "/messages/stream");
    const frames = sseFrames(streamed.response.body);
    const tokens = frames.filter((frame) => frame.event === "token").map((frame) => frame.token);
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join("")).toBe(CURATED_ANSWER);
    expect(frames.at(-1)).toMatchObject({ event: "done", low_confidence: false, curated: true });
    expect(await storedReply(streamed.session.conversationId)).toMatchObject({ generator: "curated", curated_answer_id: curated.id });
  });

  it("happy: a dissimilar question is answered from the knowledge, not from a curated answer", async () => {
    const created = await post(admin, { agent_id: tenant.agentId, question: "Do you deliver on Sundays?", answer: "Never on Sundays." });
    expect(created.statusCode).toBe(201);
    const { session, response } = await ask("How should I store my e-bike battery in winter?");
    const data = response.json().data;
    expect(data.content).toContain("room temperature");
    expect(data).not.toHaveProperty("curated");
    const stored = await storedReply(session.conversationId);
    expect(stored.generator).toBe("extractive");
    expect(stored.curated_answer_id).toBeNull();
    const widgetMessages = await t.app.inject({ method: "GET", url: `${W}/conversation/messages?after_seq=0`, headers: bearer(session.jwt) });
    for (const message of widgetMessages.json().data.messages as Record<string, unknown>[]) expect(message).not.toHaveProperty("curated");
    const live = t.published.find((event) => event.type === "message.created" && event.message.id === data.message_id);
    expect(broadcastsOf(live!).map((broadcast) => broadcast.payload.curated_answer_id)).toEqual([null, null]);
  });

  it("happy: any operator lists an agent's curated answers; an admin changes and deletes one, after which the knowledge answers again", async () => {
    const created = (await post(admin, { agent_id: tenant.agentId, question: "Is there a shop in Elmby?", answer: "Yes, on Millgate." })).json().data;
    const listed = await t.app.inject({ method: "GET", url: `${CONSOLE}/curated-answers?agent_id=${tenant.agentId}`, headers: agentOperator.headers });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data[0]).toMatchObject({ id: created.id, question: "Is there a shop in Elmby?", source_url: null });

    const patched = await t.app.inject({
      method: "PATCH",
      url: `${CONSOLE}/curated-answers/${created.id}`,
      headers: admin.headers,
      payload: { answer: "Yes, at 12 Millgate.", source_url: "https://shop.example.com/stores" },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ question: "Is there a shop in Elmby?", answer: "Yes, at 12 Millgate.", source_url: "https://shop.example.com/stores" });
    const served = await ask("is there a shop in elmby");
    expect(served.response.json().data.content).toBe("Yes, at 12 Millgate.");

    const deleted = await t.app.inject({ method: "DELETE", url: `${CONSOLE}/curated-answers/${created.id}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(204);
    const announcedDeletion = t.published.filter((event) => event.type === "curated_answer.updated").at(-1);
    expect(announcedDeletion).toMatchObject({ workspaceId: tenant.workspaceId, agentId: tenant.agentId, curatedAnswerId: created.id, deleted: true });
    const after = await ask("is there a shop in elmby");
    expect((await storedReply(after.session.conversationId)).curated_answer_id).toBeNull();
    // The reply served before keeps its marker.
    expect((await storedReply(served.session.conversationId)).curated_answer_id).toBe(created.id);
  });

  it("security: an agent operator reads but may not write; another workspace's answers, agents and messages are 404", async () => {
    const created = (await post(admin, { agent_id: tenant.agentId, question: "Can I pay by invoice?", answer: "Yes, for companies." })).json().data;
    const refused = await post(agentOperator, { agent_id: tenant.agentId, question: "q?", answer: "a" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("forbidden");
    for (const method of ["PATCH", "DELETE"] as const) {
      const response = await t.app.inject({ method, url: `${CONSOLE}/curated-answers/${created.id}`, headers: agentOperator.headers, ...(method === "PATCH" ? { payload: { answer: "No." } } : {}) });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe("forbidden");
    }
    const unauthenticated = await t.app.inject({ method: "GET", url: `${CONSOLE}/curated-answers?agent_id=${tenant.agentId}` });
    expect(unauthenticated.statusCode).toBe(401);

    const list = await t.app.inject({ method: "GET", url: `${CONSOLE}/curated-answers?agent_id=${tenant.agentId}`, headers: outsider.headers });
    expect(list.statusCode).toBe(404);
    expect(list.json().error.code).toBe("agent_not_found");
    const foreignAgent = await post(outsider, { agent_id: tenant.agentId, question: "q?", answer: "a" });
    expect(foreignAgent.statusCode).toBe(404);
    expect(foreignAgent.json().error.code).toBe("agent_not_found");
    for (const method of ["PATCH", "DELETE"] as const) {
      const response = await t.app.inject({ method, url: `${CONSOLE}/curated-answers/${created.id}`, headers: outsider.headers, ...(method === "PATCH" ? { payload: { answer: "No." } } : {}) });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe("not_found");
    }
    const { session } = await ask("Do you sell helmets?");
    const reply = await storedReply(session.conversationId);
    const foreignMessage = await post(outsider, { message_id: reply.id, answer: "a" });
    expect(foreignMessage.statusCode).toBe(404);
    expect(foreignMessage.json().error.code).toBe("not_found");
    // Still the tenant's, unchanged.
    const kept = await t.app.inject({ method: "GET", url: `${CONSOLE}/curated-answers?agent_id=${tenant.agentId}`, headers: admin.headers });
    expect((kept.json().data as { id: string; answer: string }[]).find((answer) => answer.id === created.id)?.answer).toBe("Yes, for companies.");
  });

  it("error: invalid input is 422 with the fields named", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ agent_id: tenant.agentId, question: "q?" }, "answer"],
      [{ agent_id: tenant.agentId, question: "q?", answer: "   " }, "answer"],
      [{ question: "q?", answer: "a" }, "agent_id"],
      [{ agent_id: tenant.agentId, answer: "a" }, "question"],
      [{ agent_id: tenant.agentId, question: "q?", answer: "a", source_url: "javascript:alert(1)" }, "source_url"],
      [{ agent_id: tenant.agentId, question: "x".repeat(1001), answer: "a" }, "question"],
    ];
    for (const [payload, field] of cases) {
      const response = await post(admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(Object.keys(response.json().error.fields).join(" ")).toContain(field);
    }
    const { session } = await ask("Do you sell gloves?");
    const reply = await storedReply(session.conversationId);
    const otherAgent = await post(admin, { message_id: reply.id, agent_id: "agt_someone_else", answer: "a" });
    expect(otherAgent.statusCode).toBe(422);
    expect(Object.keys(otherAgent.json().error.fields)).toContain("agent_id");

    const created = (await post(admin, { agent_id: tenant.agentId, question: "Gift cards?", answer: "Yes." })).json().data;
    const empty = await t.app.inject({ method: "PATCH", url: `${CONSOLE}/curated-answers/${created.id}`, headers: admin.headers, payload: {} });
    expect(empty.statusCode).toBe(422);
    const missingAgent = await t.app.inject({ method: "GET", url: `${CONSOLE}/curated-answers`, headers: admin.headers });
    expect(missingAgent.statusCode).toBe(422);
  });
});
