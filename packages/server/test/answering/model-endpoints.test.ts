import { createParser } from "eventsource-parser";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { updateConsoleAgent } from "../../src/console/agents/change-console-agent.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { bikeShopKnowledge, documentIdOf, pushKnowledge } from "../support/knowledge.js";
import { OPENAI_DONE, OPENAI_SERVER_ERROR, openAiChunkEvents } from "./generate/fixtures/openai-chat-stream.js";
import {
  startLoopbackChatServer,
  type LoopbackChatServer,
  type RecordedChatRequest,
  type ResponseStep,
  type ScriptedResponse,
} from "./generate/loopback-chat-server.js";

const W = "/api/v1/widget";
const MODEL_SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

type Frame = Record<string, unknown>;
/** One item of an SSE body, in the order it arrived. */
type SseItem = { frame: Frame } | { comment: string };

interface BotRow {
  id: string;
  role: string;
  content: string;
  citations: { id: number; url: string; title?: string }[];
  low_confidence: boolean;
  generator: string | null;
  latency_ms: number | null;
}

/** Parses SSE text with a real SSE parser, keeping frames and comment lines in arrival order. */
function sseParser(onItem: (item: SseItem) => void): (text: string) => void {
  const parser = createParser({
    onEvent: (event) => onItem({ frame: JSON.parse(event.data) as Frame }),
    onComment: (comment) => onItem({ comment }),
  });
  return (text) => parser.feed(text);
}

function parseSse(body: string): SseItem[] {
  const items: SseItem[] = [];
  sseParser((item) => items.push(item))(body);
  return items;
}

const framesOf = (items: readonly SseItem[]): Frame[] => items.flatMap((item) => ("frame" in item ? [item.frame] : []));
const textOf = (frames: readonly Frame[]): string => frames.filter((frame) => frame.event === "token").map((frame) => String(frame.token)).join("");

/** A 200 streaming the given text deltas the way gpt-4o-mini does, each after `pauseMs`, then `[DONE]`. */
function modelAnswer(deltas: readonly string[], options: { pauseMs?: number } = {}): ScriptedResponse {
  const steps: ResponseStep[] = [];
  for (const write of [...openAiChunkEvents(deltas), OPENAI_DONE]) {
    if (options.pauseMs !== undefined) steps.push({ pauseMs: options.pauseMs });
    steps.push({ write });
  }
  return { status: 200, headers: MODEL_SSE_HEADERS, steps };
}

/** The passages of a system prompt the model received: number → URL. */
function promptPassages(request: RecordedChatRequest): Map<number, string> {
  const passages = new Map<number, string>();
  for (const match of systemPromptOf(request).matchAll(/^\[(\d+)\] .*\n\((https?:\/\/[^)\s]+)\)$/gm)) passages.set(Number(match[1]), match[2]!);
  return passages;
}

function messagesOf(request: RecordedChatRequest): { role: string; content: string }[] {
  return request.body.messages as { role: string; content: string }[];
}

function systemPromptOf(request: RecordedChatRequest): string {
  const system = messagesOf(request).find((message) => message.role === "system");
  if (system === undefined) throw new Error("the model was sent no system prompt");
  return system.content;
}

/** An extractive answer names the page it quotes, and every sentence it quotes is a sentence of the knowledge, word for word. */
function expectVerbatimFromKnowledge(answer: string): void {
  const lead = /^From our (.+?) page: /.exec(answer);
  expect(bikeShopKnowledge.map((text) => text.title)).toContain(lead?.[1]);
  const sentences = answer
    .slice(lead?.[0].length ?? 0)
    .split(/(?<=[.!?])\s+/)
    .filter((sentence) => sentence.trim() !== "");
  expect(sentences.length).toBeGreaterThan(0);
  for (const sentence of sentences) {
    expect(bikeShopKnowledge.some((text) => text.content.includes(sentence.trim())), sentence).toBe(true);
  }
}

function within<T>(promise: Promise<T>, milliseconds: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${milliseconds} ms`)), milliseconds);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describeEachStore("POST /messages and /messages/stream with an OpenAI-compatible model on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let model: LoopbackChatServer;
  let origin: string;
  /** URL of each knowledge document → its id. */
  const documentIds = new Map<string, number>();

  beforeAll(async () => {
    model = await startLoopbackChatServer();
    t = await createTestApp(
      kind,
      {
        FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000",
        FRONTDESK_LLM_PROVIDER: "openai",
        FRONTDESK_LLM_BASE_URL: model.origin,
        FRONTDESK_LLM_MODEL: "gpt-4o-mini",
        FRONTDESK_LLM_API_KEY: "test-key",
        FRONTDESK_LLM_TIMEOUT_S: "1",
        FRONTDESK_SSE_HEARTBEAT_SECONDS: "0.2",
      },
      { workers: { allowPrivateNetworks: true } },
    );
    tenant = await seedTenant(t.services);
    const sources = await pushKnowledge(t, tenant.workspaceId, tenant.agentId, bikeShopKnowledge);
    for (const [index, source] of sources.entries()) documentIds.set(bikeShopKnowledge[index]!.source_url, await documentIdOf(t, source));
    origin = await t.app.listen({ port: 0, host: "127.0.0.1" });
    // The first model request pays for loading the SDK's lazy parts: keep that out of the 1 s first-token timeout.
    model.respondWith(modelAnswer(["Hello."]));
    const warmUp = await startSession(t.app, tenant.agentId);
    await ask(warmUp.jwt, { message: "Warm up the model" });
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
  });
  beforeEach(() => {
    model.requests.length = 0;
  });

  const ask = (jwt: string, payload: Record<string, unknown>, path = "/messages") =>
    t.app.inject({ method: "POST", url: `${W}${path}`, headers: bearer(jwt), payload });

  // A citation names its document by id, URL and title (the pushed text's title).
  const citationOf = (url: string) => ({ id: documentIds.get(url)!, url, title: bikeShopKnowledge.find((text) => text.source_url === url)!.title });

  async function storedMessages(conversationId: string): Promise<BotRow[]> {
    const { rows } = await t.services.db.query<BotRow>(
      `SELECT id, role, content, citations, low_confidence, generator, latency_ms FROM messages WHERE conversation_id = $1 ORDER BY seq`,
      [conversationId],
    );
    return rows;
  }

  /** The bot's reply, once stored (after a disconnect it is written after the response ended). */
  async function storedBotMessage(conversationId: string): Promise<BotRow> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const bot = (await storedMessages(conversationId)).find((row) => row.role === "bot");
      if (bot !== undefined) return bot;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the bot's reply was not stored within 10 s");
  }

  /** POST /messages/stream over a real HTTP connection, reading frames and comments as they arrive. */
  async function streamOverHttp(jwt: string, message: string, options: { abortAfterFirstToken?: boolean } = {}) {
    const controller = new AbortController();
    const response = await fetch(`${origin}${W}/messages/stream`, {
      method: "POST",
      headers: { ...bearer(jwt), "content-type": "application/json" },
      body: JSON.stringify({ message }),
      signal: controller.signal,
    });
    const items: SseItem[] = [];
    let abortedAt: number | null = null;
    const feed = sseParser((item) => {
      items.push(item);
      if (options.abortAfterFirstToken === true && abortedAt === null && "frame" in item && item.frame.event === "token") {
        abortedAt = Date.now();
        controller.abort();
      }
    });
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        feed(decoder.decode(value, { stream: true }));
      }
    } catch (error) {
      if (abortedAt === null) throw error;
    }
    return { status: response.status, contentType: response.headers.get("content-type"), items, abortedAt };
  }

  it("happy: streams the model's answer without its split [n] markers, cites the passages it named, and sends the conversation on the next question", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const question = "How long does delivery take, and can I return a bike?";
    model.respondWith(
      modelAnswer([
        "Standard", " delivery", " takes", " three", " to", " five", " working", " days", " [", "1", "].",
        " You", " can", " return", " any", " unused", " bike", " within", " 60", " days", " [", "2", "][", "1", "].",
      ]),
    );
    const response = await ask(session.jwt, { message: question }, "/messages/stream");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/event-stream");
    const frames = framesOf(parseSse(response.body));
    const answer = "Standard delivery takes three to five working days. You can return any unused bike within 60 days.";
    expect(textOf(frames)).toBe(answer);
    expect(frames.filter((frame) => frame.event === "token").length).toBeGreaterThan(10);
    expect(frames.some((frame) => frame.event === "token" && /[[\]]/.test(String(frame.token)))).toBe(false);

    // What the model received: the model, streaming, the key, Ada's persona with the passages, the question.
    expect(model.requests).toHaveLength(1);
    const first = model.requests[0]!;
    expect(first).toMatchObject({ method: "POST", path: "/v1/chat/completions", body: { model: "gpt-4o-mini", stream: true } });
    expect(first.headers.authorization).toBe("Bearer test-key");
    const system = systemPromptOf(first);
    expect(system).toContain("You are Ada");
    expect(system).toContain("three to five working days");
    expect(system).toContain("within 60 days of delivery for a full refund");
    const passages = promptPassages(first);
    expect(new Set([passages.get(1), passages.get(2)])).toEqual(new Set(["https://shop.example.com/help/delivery", "https://shop.example.com/help/returns"]));
    expect(messagesOf(first).filter((message) => message.role !== "system")).toEqual([{ role: "user", content: question }]);

    const citations = [citationOf(passages.get(1)!), citationOf(passages.get(2)!)];
    expect(frames.slice(-2)).toEqual([
      { event: "citations", citations },
      { event: "done", conversation_id: session.conversationId, message_id: expect.stringMatching(/^msg_/), low_confidence: false },
    ]);
    expect(frames.slice(0, -2).every((frame) => frame.event === "token")).toBe(true);

    // A second question, on the JSON endpoint: the model gets the previous turns, the bot's without markers.
    model.respondWith(modelAnswer(["We", " do", " not", " deliver", " on", " Sundays", " [", "1", "]."]));
    const followUp = await ask(session.jwt, { message: "Do you deliver on Sundays?" });
    expect(followUp.statusCode).toBe(200);
    expect(model.requests).toHaveLength(2);
    const second = model.requests[1]!;
    expect(messagesOf(second).filter((message) => message.role !== "system")).toEqual([
      { role: "user", content: question },
      { role: "assistant", content: answer },
      { role: "user", content: "Do you deliver on Sundays?" },
    ]);
    const followUpCitation = citationOf(promptPassages(second).get(1)!);
    expect(followUpCitation.url).toBe("https://shop.example.com/help/delivery");
    expect(followUp.json().data).toEqual({
      message_id: expect.stringMatching(/^msg_/),
      conversation_id: session.conversationId,
      content: "We do not deliver on Sundays.",
      citations: [followUpCitation],
      low_confidence: false,
    });

    const rows = await storedMessages(session.conversationId);
    expect(rows.map((row) => [row.role, row.content])).toEqual([
      ["visitor", question],
      ["bot", answer],
      ["visitor", "Do you deliver on Sundays?"],
      ["bot", "We do not deliver on Sundays."],
    ]);
    expect(rows[1]).toMatchObject({ id: frames.at(-1)!.message_id, citations, low_confidence: false, generator: "openai:gpt-4o-mini" });
    expect(rows[3]).toMatchObject({ id: followUp.json().data.message_id, citations: [followUpCitation], low_confidence: false, generator: "openai:gpt-4o-mini" });
    for (const row of [rows[1]!, rows[3]!]) expect(row.latency_ms).toBeGreaterThanOrEqual(0);
    expect(rows[0]!.generator).toBeNull();
  });

  it("happy: a persona renamed in the console is the very next answer's persona (the agent each question reads through the cache is dropped)", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const admin = { id: "opr_cache_test", workspaceId: tenant.workspaceId, role: "admin" as const, name: "Admin", email: "admin@example.com" };
    model.respondWith(modelAnswer(["Yes, we do."]), modelAnswer(["Yes, we do."]));
    await ask(session.jwt, { message: "Do you sell helmets?" }, "/messages/stream");
    await updateConsoleAgent(t.services, admin, tenant.agentId, { persona_name: "Bea" });
    try {
      await ask(session.jwt, { message: "And gloves?" }, "/messages/stream");
      expect(model.requests).toHaveLength(2);
      expect(systemPromptOf(model.requests[0]!)).toContain("You are Ada");
      expect(systemPromptOf(model.requests[1]!)).toContain("You are Bea");
    } finally {
      await updateConsoleAgent(t.services, admin, tenant.agentId, { persona_name: "Ada" });
    }
  });

  it("happy: a model that finds no answer in the passages ([0]) streams its own words, flagged low confidence, citing nothing", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const question = "How long does delivery to the moon take?";
    model.respondWith(modelAnswer(["[0]", " I couldn't find delivery", " to the moon on this site.", " Would you like to talk to someone from the team?"]));
    const frames = framesOf(parseSse((await ask(session.jwt, { message: question }, "/messages/stream")).body));
    const answer = "I couldn't find delivery to the moon on this site. Would you like to talk to someone from the team?";
    expect(textOf(frames)).toBe(answer);
    expect(frames.slice(-2)).toEqual([
      { event: "citations", citations: [] },
      { event: "done", conversation_id: session.conversationId, message_id: expect.stringMatching(/^msg_/), low_confidence: true },
    ]);
    const rows = await storedMessages(session.conversationId);
    expect(rows.at(-1)).toMatchObject({ role: "bot", content: answer, citations: [], low_confidence: true, generator: "openai:gpt-4o-mini" });

    model.respondWith(modelAnswer(["[0] Sorry, I don't know."]));
    const json = await ask(session.jwt, { message: "And to Mars?" });
    expect(json.json().data).toMatchObject({ content: "Sorry, I don't know.", citations: [], low_confidence: true });
  });

  it("error: a model server answering 500 still gets the visitor an extractive answer, flagged low confidence, on both endpoints", async () => {
    const question = "When is my refund paid after you receive the return?";
    const failure: ScriptedResponse = { status: 500, headers: { "content-type": "application/json" }, steps: [{ write: JSON.stringify(OPENAI_SERVER_ERROR) }] };
    model.respondWith(failure, failure);

    const session = await startSession(t.app, tenant.agentId);
    const response = await ask(session.jwt, { message: question });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({ conversation_id: session.conversationId, low_confidence: true });
    expect(data.content).toContain("five working days");
    expectVerbatimFromKnowledge(data.content);
    expect(data.citations).toContainEqual(citationOf("https://shop.example.com/help/returns"));
    expect(model.requests).toHaveLength(1);

    const streamed = await startSession(t.app, tenant.agentId);
    const stream = await ask(streamed.jwt, { message: question }, "/messages/stream");
    expect(stream.statusCode).toBe(200);
    const frames = framesOf(parseSse(stream.body));
    expect(frames.some((frame) => frame.event === "error")).toBe(false);
    expect(textOf(frames)).toBe(data.content);
    expect(frames.slice(-2)).toEqual([
      { event: "citations", citations: data.citations },
      { event: "done", conversation_id: streamed.conversationId, message_id: expect.stringMatching(/^msg_/), low_confidence: true },
    ]);
    expect(model.requests).toHaveLength(2);

    const answered: [conversationId: string, messageId: unknown][] = [
      [session.conversationId, data.message_id],
      [streamed.conversationId, frames.at(-1)!.message_id],
    ];
    for (const [conversationId, messageId] of answered) {
      const rows = await storedMessages(conversationId);
      expect(rows.map((row) => row.role)).toEqual(["visitor", "bot"]);
      expect(rows[1]).toMatchObject({ id: messageId, content: data.content, citations: data.citations, low_confidence: true, generator: "extractive" });
    }
  });

  it("error: a model silent past FRONTDESK_LLM_TIMEOUT_S falls back to the extractive answer, with heartbeats on the stream while it waits", async () => {
    const question = "How long does a full battery charge take?";
    const stall: ScriptedResponse = { status: 200, headers: MODEL_SSE_HEADERS, steps: [{ stall: true }] };
    model.respondWith(stall);

    const session = await startSession(t.app, tenant.agentId);
    const { status, contentType, items } = await streamOverHttp(session.jwt, question);
    expect(status).toBe(200);
    expect(contentType).toContain("text/event-stream");
    const firstFrame = items.findIndex((item) => "frame" in item);
    expect(firstFrame).toBeGreaterThan(0);
    expect(items.slice(0, firstFrame).every((item) => "comment" in item)).toBe(true);
    const frames = framesOf(items);
    expect(frames[0]!.event).toBe("token");
    expect(textOf(frames)).toContain("four hours");
    expectVerbatimFromKnowledge(textOf(frames));
    expect(frames.some((frame) => frame.event === "error")).toBe(false);
    expect(frames.at(-1)).toEqual({ event: "done", conversation_id: session.conversationId, message_id: expect.stringMatching(/^msg_/), low_confidence: true });
    const citations = frames.at(-2)!.citations;
    expect(citations).toContainEqual(citationOf("https://shop.example.com/help/battery"));

    // The stalled model request was dropped, not left hanging.
    expect(model.requests).toHaveLength(1);
    expect(await within(model.requests[0]!.closed, 5000, "dropping the stalled model request")).toEqual({ finished: false });
    expect(await storedBotMessage(session.conversationId)).toMatchObject({
      content: textOf(frames),
      citations,
      low_confidence: true,
      generator: "extractive",
    });

    // The JSON endpoint falls back the same way.
    model.respondWith(stall);
    const other = await startSession(t.app, tenant.agentId);
    const response = await ask(other.jwt, { message: question });
    expect(response.json().data).toMatchObject({ content: textOf(frames), citations, low_confidence: true });
    expect(await storedBotMessage(other.conversationId)).toMatchObject({ low_confidence: true, generator: "extractive" });
  });

  it("error: a model that drops the connection mid-answer ends the stream with an error frame and done; the partial answer is stored", async () => {
    model.respondWith({
      status: 200,
      headers: MODEL_SSE_HEADERS,
      steps: [...openAiChunkEvents(["Standard", " delivery", " takes", " three"], { finish: false }).map((write) => ({ write })), { pauseMs: 100 }, { destroy: true }],
    });
    const session = await startSession(t.app, tenant.agentId);
    const response = await ask(session.jwt, { message: "How long does standard delivery take?" }, "/messages/stream");
    expect(response.statusCode).toBe(200);
    const frames = framesOf(parseSse(response.body));
    const kinds = frames.map((frame) => frame.event);
    const errorAt = kinds.indexOf("error");
    expect(errorAt).toBeGreaterThan(0);
    expect(kinds.slice(0, errorAt).every((event) => event === "token")).toBe(true);
    expect(textOf(frames)).toBe("Standard delivery takes three");
    expect(frames[errorAt]).toEqual({ event: "error", code: "generation_failed", message: expect.any(String) });
    // The citations of the partial answer come between the error and done, as stored.
    expect(kinds.slice(errorAt)).toEqual(["error", "citations", "done"]);
    expect(frames.at(-1)).toMatchObject({ event: "done", conversation_id: session.conversationId, message_id: expect.stringMatching(/^msg_/) });

    const bot = await storedBotMessage(session.conversationId);
    expect(bot).toMatchObject({ id: frames.at(-1)!.message_id, content: "Standard delivery takes three", citations: frames.at(-2)!.citations, generator: "openai:gpt-4o-mini" });
  });

  it("happy: a visitor who leaves mid-answer stops the model request, and what was generated so far is stored", async () => {
    const fullAnswer = "Express delivery arrives the next working day if you order before 2 pm. Orders over 50 euros ship for free.";
    // One word every 200 ms: about 5 s for the whole answer.
    model.respondWith(modelAnswer(fullAnswer.split(/(?=\s)/), { pauseMs: 200 }));
    const session = await startSession(t.app, tenant.agentId);
    const { status, items, abortedAt } = await streamOverHttp(session.jwt, "Can I get express delivery tomorrow?", { abortAfterFirstToken: true });
    expect(status).toBe(200);
    expect(abortedAt).not.toBeNull();
    expect(framesOf(items).some((frame) => frame.event === "done")).toBe(false);

    expect(model.requests).toHaveLength(1);
    expect(await within(model.requests[0]!.closed, 2500, "closing the model request after the visitor left")).toEqual({ finished: false });

    const bot = await storedBotMessage(session.conversationId);
    expect(bot.generator).toBe("openai:gpt-4o-mini");
    expect(bot.content).not.toBe("");
    expect(bot.content.length).toBeLessThan(fullAnswer.length);
    expect(fullAnswer.startsWith(bot.content)).toBe(true);
    expect(bot.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it("happy: small talk and a request for a person are answered as with the extractive generator: the model is never asked", async () => {
    const session = await startSession(t.app, tenant.agentId);
    expect((await ask(session.jwt, { message: "thanks!" })).json().data).toMatchObject({
      content: "You're welcome! Is there anything else I can help you with?",
      citations: [],
      low_confidence: false,
    });
    expect((await storedMessages(session.conversationId)).at(-1)).toMatchObject({ role: "bot", generator: "small-talk", low_confidence: false });
    expect((await ask(session.jwt, { message: "Can I talk to a human?" })).json().data).toMatchObject({ content: "", awaiting_human: true });
    expect(model.requests).toHaveLength(0);
  });

  it("happy: while a human is requested, no request reaches the model", async () => {
    const session = await startSession(t.app, tenant.agentId);
    const requested = await t.app.inject({ method: "POST", url: `${W}/request-human`, headers: bearer(session.jwt), payload: {} });
    expect(requested.statusCode).toBeLessThan(300);

    const response = await ask(session.jwt, { message: "How long does delivery take?" });
    expect(response.json().data).toMatchObject({ content: "", awaiting_human: true });
    const stream = await ask(session.jwt, { message: "Hello?" }, "/messages/stream");
    expect(framesOf(parseSse(stream.body))).toEqual([{ event: "done", conversation_id: session.conversationId, awaiting_human: true }]);

    expect(model.requests).toHaveLength(0);
    // The request's system message ("Waiting for a person to join"), then the two questions.
    expect((await storedMessages(session.conversationId)).map((row) => row.role)).toEqual(["system", "visitor", "visitor"]);
  });
});
