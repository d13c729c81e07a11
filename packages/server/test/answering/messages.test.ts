import { createParser, type EventSourceMessage } from "eventsource-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { bearer, seedTenant, startSession, type Tenant, SITE_ORIGIN, adminOf } from "../support/seed.js";
import { bikeShopKnowledge, documentIdOf, pushKnowledge } from "../support/knowledge.js";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";

const W = "/api/v1/widget";

/** Parses an SSE body with a real SSE parser; returns the JSON frames and the comment lines. */
export function parseFrames(body: string): { frames: Record<string, unknown>[]; comments: string[] } {
  const frames: Record<string, unknown>[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (event: EventSourceMessage) => frames.push(JSON.parse(event.data) as Record<string, unknown>),
    onComment: (comment) => comments.push(comment),
  });
  parser.feed(body);
  return { frames, comments };
}

describeEachStore("POST /messages and /messages/stream on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let documents: number[];

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000" }, { workers: { allowPrivateNetworks: true } });
    tenant = await seedTenant(t.services);
    // A second agent in the same workspace, with knowledge of its own.
    const second = (await runAdminCommand(adminOf(t.services), {
      command: "agent.create",
      workspaceId: tenant.workspaceId,
      name: "Careers bot",
      origins: [SITE_ORIGIN],
    })) as { id: string };
    other = { workspaceId: tenant.workspaceId, agentId: second.id };
    const sources = await pushKnowledge(t, tenant.workspaceId, tenant.agentId, bikeShopKnowledge);
    documents = await Promise.all(sources.map((id) => documentIdOf(t, id)));
    await pushKnowledge(t, tenant.workspaceId, other.agentId, [
      { title: "Jobs", source_url: "https://shop.example.com/careers", content: "We are hiring bike mechanics in Brookfield. Apply with your CV by e-mail." },
    ]);
  });
  afterAll(() => t.close());

  const ask = (jwt: string, payload: Record<string, unknown>, path = "/messages") =>
    t.app.inject({ method: "POST", url: `${W}${path}`, headers: bearer(jwt), payload });

  it("happy: answers from the agent's knowledge with a citation of the right document, and stores both messages", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await ask(session.jwt, { message: "When is my refund paid after you receive the return?", page_url: `${SITE_ORIGIN}/cart` });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({ message_id: expect.stringMatching(/^msg_/), conversation_id: session.conversationId, low_confidence: false });
    expect(data.content).toContain("five working days");
    expect(data.citations).toContainEqual({ id: documents[1], url: "https://shop.example.com/help/returns", title: "Returns and refunds" });
    expect(data.citations.every((citation: { id: number }) => documents.includes(citation.id))).toBe(true);

    const { rows } = await t.services.db.query<{ id: string; role: string; content: string; citations: unknown; low_confidence: boolean; generator: string | null; latency_ms: number | null }>(
      `SELECT id, role, content, citations, low_confidence, generator, latency_ms FROM messages WHERE conversation_id = $1 ORDER BY seq`,
      [session.conversationId],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ role: "visitor", content: "When is my refund paid after you receive the return?", generator: null });
    expect(rows[1]).toMatchObject({ id: data.message_id, role: "bot", content: data.content, citations: data.citations, low_confidence: false, generator: "extractive" });
    expect(rows[1]!.latency_ms).toBeGreaterThanOrEqual(0);

    // init resumes the conversation and returns them, oldest first.
    const resumed = await t.app.inject({
      method: "POST",
      url: `${W}/init`,
      headers: { origin: SITE_ORIGIN },
      payload: { agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, anon_id: session.anonymousId },
    });
    expect(resumed.json().data.messages).toEqual([
      { id: rows[0]!.id, seq: 1, role: "visitor", content: "When is my refund paid after you receive the return?", code: null, citations: [], author: null, created_at: expect.any(String) },
      { id: data.message_id, seq: 2, role: "bot", content: data.content, code: null, citations: data.citations, author: null, created_at: expect.any(String) },
    ]);
  });

  it("happy: the stream sends token frames, then one citations frame, then done, each a data line and a blank line", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await ask(session.jwt, { message: "how long does a full battery charge take?" }, "/messages/stream");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/event-stream");
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(response.headers["x-accel-buffering"]).toBe("no");
    expect(response.headers["x-ratelimit-limit"]).toBeDefined();
    expect(response.body).toMatch(/^data: \{"event":"token","token":/);
    expect(response.body.endsWith("\n\n")).toBe(true);
    const { frames } = parseFrames(response.body);
    const kinds = frames.map((frame) => frame.event);
    const firstNonToken = kinds.findIndex((event) => event !== "token");
    expect(firstNonToken).toBeGreaterThan(0);
    expect(kinds.slice(firstNonToken)).toEqual(["citations", "done"]);
    const text = frames.filter((frame) => frame.event === "token").map((frame) => frame.token).join("");
    expect(text).toContain("four hours");
    // The document the answer rests on comes first; the other retrieved documents follow in retrieval order.
    expect(frames.at(-2)).toMatchObject({ event: "citations" });
    expect((frames.at(-2)?.citations as unknown[] | undefined)?.[0]).toEqual({ id: documents[2], url: "https://shop.example.com/help/battery", title: "E-bike battery care" });
    expect(frames.at(-1)).toMatchObject({ event: "done", conversation_id: session.conversationId, low_confidence: false });
    const stored = await t.services.db.query<{ content: string }>(`SELECT content FROM messages WHERE conversation_id = $1 AND role = 'bot'`, [session.conversationId]);
    expect(stored.rows[0]!.content).toBe(text);
  });

  it("happy: a follow-up is understood from the conversation's recent turns", async () => {
    const session = await startSession(t.app, tenant.agentId);
    await ask(session.jwt, { message: "Tell me about express delivery" });
    const followUp = await ask(session.jwt, { message: "and what if I order before 2 pm?" });
    expect(followUp.json().data.citations.map((citation: { id: number }) => citation.id)).toContain(documents[0]);
  });

  it("happy: 'And on Sunday?' after a question about Saturday asks that question about Sunday, not about any page naming Sunday", async () => {
    const shop = (await runAdminCommand(adminOf(t.services), { command: "agent.create", workspaceId: tenant.workspaceId, name: "Shop hours", origins: [SITE_ORIGIN] })) as { id: string };
    const [hoursSource] = await pushKnowledge(t, tenant.workspaceId, shop.id, [
      { title: "Shop opening hours", source_url: "https://shop.example.com/shops", content: "The Elmford shop is open on Saturday from 9:30 to 17:30. The Elmford shop is closed on Sunday." },
      {
        title: "Weekend delivery",
        source_url: "https://shop.example.com/weekend-delivery",
        content: "Saturday delivery costs £14.95. Sunday delivery is not available. Orders placed on Saturday or Sunday are packed on Monday. Sunday orders arrive on Tuesday.",
      },
    ]);
    const hours = await documentIdOf(t, hoursSource!);
    const session = await startSession(t.app, shop.id);
    const saturday = (await ask(session.jwt, { message: "Is the Elmford shop open on Saturday?" })).json().data;
    expect(saturday.citations[0].id).toBe(hours);
    const sunday = (await ask(session.jwt, { message: "And on Sunday?" })).json().data;
    expect(sunday).toMatchObject({ low_confidence: false });
    expect(sunday.citations[0].id).toBe(hours);
    expect(sunday.content).toContain("The Elmford shop is closed on Sunday.");
  });

  it("happy: 'and how long does it take?' after a question about a bike fit is read with it, not alone ('take' is on the delivery page)", async () => {
    const fits = (await runAdminCommand(adminOf(t.services), { command: "agent.create", workspaceId: tenant.workspaceId, name: "Fits", origins: [SITE_ORIGIN] })) as { id: string };
    const [fitSource] = await pushKnowledge(t, tenant.workspaceId, fits.id, [
      { title: "Bike fitting", source_url: "https://shop.example.com/fitting", content: "A Comfort Fit costs £95. A Comfort Fit takes one hour in our Brookfield studio." },
      { title: "Delivery", source_url: "https://shop.example.com/delivery", content: "Bikes take 4 to 6 working days to arrive. Parcels take 2 working days." },
    ]);
    const fitting = await documentIdOf(t, fitSource!);
    const session = await startSession(t.app, fits.id);
    expect((await ask(session.jwt, { message: "How much does a bike fit cost?" })).json().data.citations[0].id).toBe(fitting);
    const followUp = (await ask(session.jwt, { message: "and how long does it take?" })).json().data;
    expect(followUp.citations[0].id).toBe(fitting);
    expect(followUp.content).toContain("takes one hour");
  });

  it("happy: 'what about Brookfield?' after 'And on Sunday?' after a question about Saturday is read about Sunday's opening hours", async () => {
    const shops = (await runAdminCommand(adminOf(t.services), { command: "agent.create", workspaceId: tenant.workspaceId, name: "Shop hours chain", origins: [SITE_ORIGIN] })) as { id: string };
    const [hoursSource] = await pushKnowledge(t, tenant.workspaceId, shops.id, [
      {
        title: "Shop opening hours",
        source_url: "https://shop.example.com/shops",
        content: "The Elmford shop is open on Saturday from 9:30 to 17:30 and is closed on Sunday. The Brookfield shop is open on Saturday from 9:00 to 17:30 and on Sunday from 10:00 to 16:00.",
      },
      { title: "Our Brookfield shop", source_url: "https://shop.example.com/brookfield", content: "The Brookfield shop is on Millgate in Brookfield city centre. Parking near the Brookfield shop is free on Sunday." },
    ]);
    const hours = await documentIdOf(t, hoursSource!);
    const session = await startSession(t.app, shops.id);
    await ask(session.jwt, { message: "Is the Elmford shop open on Saturday?" });
    await ask(session.jwt, { message: "And on Sunday?" });
    const brookfield = (await ask(session.jwt, { message: "what about Brookfield?" })).json().data;
    expect(brookfield).toMatchObject({ low_confidence: false });
    expect(brookfield.citations[0].id).toBe(hours);
    expect(brookfield.content).toContain("on Sunday from 10:00 to 16:00");
  });

  it("happy: 'thanks!' or 'hi' after an answer is answered in kind, not with the previous answer again, and is no gap in the knowledge", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const answered = (await ask(session.jwt, { message: "How long do I have to return a bike?" })).json().data;
    expect(answered.low_confidence).toBe(false);
    for (const [message, reply] of [
      ["thanks!", "You're welcome! Is there anything else I can help you with?"],
      ["hi", "Hello! How can I help you today?"],
    ] as const) {
      expect((await ask(session.jwt, { message })).json().data).toMatchObject({ content: reply, citations: [], low_confidence: false });
    }
  });

  it("happy: a visitor who writes that they want a person, or says yes to the unsure bot's offer, is waiting for one; the bot says nothing more", async () => {
    const statusOf = async (conversationId: string) =>
      (await t.services.db.query<{ status: string; human_request_reason: string | null }>(`SELECT status, human_request_reason FROM conversations WHERE id = $1`, [conversationId])).rows[0];
    const botReplies = async (conversationId: string) =>
      (await t.services.db.query<{ content: string }>(`SELECT content FROM messages WHERE conversation_id = $1 AND role = 'bot' ORDER BY seq`, [conversationId])).rows.map((row) => row.content);

    const asking = await startSession(t.app, tenant.agentId);
    const asked = (await ask(asking.jwt, { message: "Can I talk to a human?" })).json().data;
    expect(asked).toMatchObject({ content: "", citations: [], low_confidence: false, awaiting_human: true });
    expect(await statusOf(asking.conversationId)).toEqual({ status: "awaiting_human", human_request_reason: "Can I talk to a human?" });
    expect(await botReplies(asking.conversationId)).toEqual([]);
    const stream = await ask((await startSession(t.app, tenant.agentId)).jwt, { message: "Je voudrais parler à un conseiller" }, "/messages/stream");
    expect(parseFrames(stream.body).frames).toEqual([{ event: "done", conversation_id: expect.any(String), awaiting_human: true }]);

    const unsure = await startSession(t.app, tenant.agentId);
    expect((await ask(unsure.jwt, { message: "Who won the football world cup in 1998?" })).json().data.low_confidence).toBe(true);
    expect((await ask(unsure.jwt, { message: "Yes please!" })).json().data).toMatchObject({ content: "", awaiting_human: true });
    expect(await statusOf(unsure.conversationId)).toEqual({ status: "awaiting_human", human_request_reason: null });

    // "yes" after an answer the bot was sure of asks for nobody, nor for that answer again.
    const sure = await startSession(t.app, tenant.agentId);
    expect((await ask(sure.jwt, { message: "How long do I have to return a bike?" })).json().data.low_confidence).toBe(false);
    expect((await ask(sure.jwt, { message: "yes" })).json().data).toMatchObject({ content: "Is there anything else I can help you with?", citations: [], low_confidence: false });
    expect((await statusOf(sure.conversationId))?.status).toBe("bot");
  });

  it("happy: a question the knowledge cannot answer is low confidence, says nothing was found, cites nothing and offers a human", async () => {
    const session = await startSession(t.app, tenant.agentId);
    for (const message of ["Who won the football world cup in 1998?", "Zyxwvut qwertyuiop?"]) {
      const data = (await ask(session.jwt, { message })).json().data;
      expect(data).toMatchObject({ low_confidence: true, citations: [] });
      // No page shares a word with it: the nearest vectors alone are not offered as related pages.
      expect(data.content).toMatch(/couldn't find it on this site/);
      expect(data.content.toLowerCase()).toMatch(/person|human|someone/);
    }
  });

  it("happy: an agent that knows a single page answers from it, and is still unsure off its topic", async () => {
    const single = (await runAdminCommand(adminOf(t.services), { command: "agent.create", workspaceId: tenant.workspaceId, name: "One page", origins: [SITE_ORIGIN] })) as { id: string };
    const [sourceId] = await pushKnowledge(t, tenant.workspaceId, single.id, [bikeShopKnowledge[1]!]);
    const session = await startSession(t.app, single.id);
    const answered = (await ask(session.jwt, { message: "How long do I have to return a bike?" })).json().data;
    expect(answered.low_confidence).toBe(false);
    expect(answered.content).toContain("within 60 days");
    expect(answered.citations).toEqual([{ id: await documentIdOf(t, sourceId!), url: bikeShopKnowledge[1]!.source_url, title: bikeShopKnowledge[1]!.title }]);
    const offTopic = (await ask(session.jwt, { message: "Who won the football world cup in 1998?" })).json().data;
    expect(offTopic.low_confidence).toBe(true);
  });

  it("security: another agent's knowledge is never retrieved, even in the same workspace", async () => {
    const session = await startSession(t.app, other.agentId);
    const data = (await ask(session.jwt, { message: "How long do refunds take to arrive after a return?" })).json().data;
    expect(data.citations.every((citation: { url: string }) => citation.url === "https://shop.example.com/careers")).toBe(true);
    expect(data.content).not.toContain("five working days");
    const mine = await startSession(t.app, tenant.agentId);
    const hiring = (await ask(mine.jwt, { message: "Are you hiring bike mechanics in Brookfield?" })).json().data;
    expect(hiring.citations.map((citation: { url: string }) => citation.url)).not.toContain("https://shop.example.com/careers");
  });

  it("happy: while a human is requested the bot stays quiet; the visitor's message is stored and published", async () => {
    const before = t.published.length;
    const session = await startSession(t.app, tenant.agentId);
    await t.app.inject({ method: "POST", url: `${W}/request-human`, headers: bearer(session.jwt), payload: {} });
    const response = await ask(session.jwt, { message: "Hello? Is anyone there?" });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      message_id: expect.stringMatching(/^msg_/),
      conversation_id: session.conversationId,
      content: "",
      citations: [],
      low_confidence: false,
      awaiting_human: true,
    });
    const stream = await ask(session.jwt, { message: "Still waiting" }, "/messages/stream");
    expect(parseFrames(stream.body).frames).toEqual([{ event: "done", conversation_id: session.conversationId, awaiting_human: true }]);
    const { rows } = await t.services.db.query<{ role: string; content: string }>(`SELECT role, content FROM messages WHERE conversation_id = $1 ORDER BY seq`, [session.conversationId]);
    expect(rows).toEqual([
      { role: "system", content: "Waiting for a person to join" },
      { role: "visitor", content: "Hello? Is anyone there?" },
      { role: "visitor", content: "Still waiting" },
    ]);
    const published = t.published.slice(before).filter((event) => event.type === "message.created" && event.conversationId === session.conversationId);
    expect(published.map((event) => event.type === "message.created" && event.message.role)).toEqual(["system", "visitor", "visitor"]);
  });

  it("security: a human request made elsewhere (another process) silences the bot even while the session is cached", async () => {
    const session = await startSession(t.app, tenant.agentId);
    expect((await t.app.inject({ method: "POST", url: `${W}/events`, headers: bearer(session.jwt), payload: { event: "x" } })).statusCode).toBe(202);
    await t.services.db.query(`UPDATE conversations SET status = 'awaiting_human', human_requested_at = now() WHERE id = $1`, [session.conversationId]);
    const data = (await ask(session.jwt, { message: "When is my refund paid?" })).json().data;
    expect(data.awaiting_human).toBe(true);
  });

  it.each([
    ["no message", {}, "message"],
    ["an empty message", { message: "" }, "message"],
    ["a blank message", { message: "   " }, "message"],
    ["a message over 4,000 characters", { message: "a".repeat(4001) }, "message"],
    ["a relative page_url", { message: "hi", page_url: "/cart" }, "page_url"],
    ["page_context that is not an object", { message: "hi", page_context: "product page" }, "page_context"],
    ["page_context over 16 KB", { message: "hi", page_context: { html: "x".repeat(17 * 1024) } }, "page_context"],
  ])("error: %s is 422 on both endpoints and stores nothing", async (_label, body, field) => {
    const session = await startSession(t.app, tenant.agentId);
    for (const path of ["/messages", "/messages/stream"]) {
      const response = await ask(session.jwt, body, path);
      expect(response.statusCode).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(Object.keys(response.json().error.fields)).toContain(field);
    }
    const { rows } = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1`, [session.conversationId]);
    expect(rows[0]!.n).toBe(0);
  });

  it("happy: a message of exactly 4,000 characters and a page_context object are accepted", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await ask(session.jwt, { message: `${"battery ".repeat(499)}charge`.slice(0, 4000), page_context: { title: "E-bike X1", price: 1999 } });
    expect(response.statusCode).toBe(200);
  });

  it("error: no token is 401 missing_token; an expired one token_expired", async () => {
    const none = await t.app.inject({ method: "POST", url: `${W}/messages`, payload: { message: "hi" } });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe("missing_token");
    const noneStream = await t.app.inject({ method: "POST", url: `${W}/messages/stream`, payload: { message: "hi" } });
    expect(noneStream.json().error.code).toBe("missing_token");
    const session = await startSession(t.app, tenant.agentId);
    t.clock.offsetMs = 3601_000;
    try {
      expect((await ask(session.jwt, { message: "hi" })).json().error.code).toBe("token_expired");
    } finally {
      t.clock.offsetMs = 0;
    }
  });
});

describe("messages share the per-token budget with events", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp("pglite", { FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "3" });
  });
  afterAll(() => t.close());

  it("error: the third call across events and messages exhausts it and the fourth is 429", async () => {
    const tenant = await seedTenant(t.services);
    const session = await startSession(t.app, tenant.agentId);
    const message = () => t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message: "hi" } });
    expect((await message()).statusCode).toBe(200);
    expect((await t.app.inject({ method: "POST", url: `${W}/events`, headers: bearer(session.jwt), payload: { event: "x" } })).statusCode).toBe(202);
    expect((await t.app.inject({ method: "POST", url: `${W}/messages/stream`, headers: bearer(session.jwt), payload: { message: "hi" } })).statusCode).toBe(200);
    const refused = await message();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe("rate_limited");
  });
});
