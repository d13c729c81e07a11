import { createParser } from "eventsource-parser";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { answerTurn, turnKnowledgeOf, type TurnDecision } from "../../src/answering/answer-turn.js";
import { stageOf, type TurnTrace } from "../../src/answering/turn-trace.js";
import { explainTurn } from "../../src/console/knowledge/explain-turn.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { bikeShopKnowledge, documentIdOf, pushKnowledge } from "../support/knowledge.js";
import { OPENAI_DONE, openAiChunkEvents } from "./generate/fixtures/openai-chat-stream.js";
import { startLoopbackChatServer, type LoopbackChatServer, type RecordedChatRequest, type ScriptedResponse } from "./generate/loopback-chat-server.js";

const W = "/api/v1/widget";
const MODEL_SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

type Frame = Record<string, unknown>;

function framesOf(body: string): Frame[] {
  const frames: Frame[] = [];
  createParser({ onEvent: (event) => frames.push(JSON.parse(event.data) as Frame) }).feed(body);
  return frames;
}

const textOf = (frames: readonly Frame[]): string => frames.filter((frame) => frame.event === "token").map((frame) => String(frame.token)).join("");

/** A 200 streaming the given text deltas the way gpt-4o-mini does, then `[DONE]`. */
function modelAnswer(deltas: readonly string[]): ScriptedResponse {
  return { status: 200, headers: MODEL_SSE_HEADERS, steps: [...openAiChunkEvents(deltas), OPENAI_DONE].map((write) => ({ write })) };
}

function systemPromptOf(request: RecordedChatRequest): string {
  const system = (request.body.messages as { role: string; content: string }[]).find((message) => message.role === "system");
  if (system === undefined) throw new Error("the model was sent no system prompt");
  return system.content;
}

/** The passages the model was shown: number → URL. */
function passageUrls(request: RecordedChatRequest): Map<number, string> {
  return new Map([...systemPromptOf(request).matchAll(/^\[(\d+)\] .*\n\((https?:\/\/[^)\s]+)\)$/gm)].map((match) => [Number(match[1]), match[2]!]));
}

// Retrieval is made unsure of every question (thresholds no match reaches), while it still finds
// passages: what the model makes of them is then the only verdict.
describeEachStore("a model judges the passages retrieval was unsure of, on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let model: LoopbackChatServer;
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
        FRONTDESK_RETRIEVAL_MIN_SIMILARITY: "1",
        FRONTDESK_RETRIEVAL_MIN_COVERAGE: "1",
      },
      { workers: { allowPrivateNetworks: true } },
    );
    tenant = await seedTenant(t.services);
    const sources = await pushKnowledge(t, tenant.workspaceId, tenant.agentId, bikeShopKnowledge);
    for (const [index, source] of sources.entries()) documentIds.set(bikeShopKnowledge[index]!.source_url, await documentIdOf(t, source));
    // The first model request pays for loading the SDK's lazy parts.
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

  /** One turn as the widget answers it, read with its trace. */
  async function turnOf(message: string): Promise<{ decision: TurnDecision; trace: TurnTrace }> {
    const agent = { id: tenant.agentId, language: "en", persona: { name: "Ada", tone: "friendly" } };
    for await (const event of answerTurn(turnKnowledgeOf(t.services, t.services.embedder), { agent, message, history: [], signal: new AbortController().signal })) {
      if (event.type === "decided") return { decision: event.decision, trace: event.trace };
    }
    throw new Error("the turn ended without a decision");
  }

  it("happy: the model gets the passages retrieval was unsure of; its answer citing one is sure and cites that page", async () => {
    const session = await startSession(t.app, tenant.agentId);
    model.respondWith(modelAnswer(["Standard delivery takes", " three to five working days [", "1", "]."]));
    const question = "How many days until my parcel arrives?";
    const frames = framesOf((await ask(session.jwt, { message: question }, "/messages/stream")).body);

    expect(model.requests).toHaveLength(1);
    const sent = model.requests[0]!;
    expect(systemPromptOf(sent)).toContain("Passages:");
    expect(systemPromptOf(sent)).toContain("three to five working days");
    expect(textOf(frames)).toBe("Standard delivery takes three to five working days.");
    // It cites passage [1], whichever page that was.
    const first = passageUrls(sent).get(1)!;
    const title = bikeShopKnowledge.find((text) => text.source_url === first)!.title;
    expect(frames.slice(-2)).toEqual([
      { event: "citations", citations: [{ id: documentIds.get(first), url: first, title }] },
      { event: "done", conversation_id: session.conversationId, message_id: expect.stringMatching(/^msg_/), low_confidence: false },
    ]);

    // The trace tells retrieval was unsure and the model decided.
    model.respondWith(modelAnswer(["Standard delivery takes", " three to five working days [1]."]));
    const { decision, trace } = await turnOf(question);
    expect(stageOf(trace, "confidence")).toMatchObject({ sure: false, reason: "weak_match" });
    expect(stageOf(trace, "composition")).toMatchObject({ judgement: "answered", lowConfidence: false, turnedSure: true, turnedUnsure: false, generator: "openai:gpt-4o-mini" });
    expect(decision).toMatchObject({ kind: "reply", reply: { lowConfidence: false } });
    // "Try a question" tells a site owner the same, in words.
    const steps = explainTurn(question, "en", "", null, decision, trace).steps;
    expect(steps.find((step) => step.stage === "confidence")?.summary).toMatch(/^Unsure: .* The model is given the passages all the same and judges for itself\.$/);
    expect(steps.find((step) => step.stage === "composition")?.summary).toMatch(/though the search was unsure, the model found the answer in the passages and cites the page it used/);
  });

  it("happy: the model's decline ([0]) becomes low_confidence, citing nothing, and the person it offers is one yes away", async () => {
    const session = await startSession(t.app, tenant.agentId);
    model.respondWith(modelAnswer(["[0] I couldn't find delivery to the moon on this site.", " Would you like me to connect you with a person?"]));
    const response = await ask(session.jwt, { message: "Do you deliver to the moon?" });
    expect(systemPromptOf(model.requests[0]!)).toContain("Passages:");
    expect(response.json().data).toMatchObject({
      content: "I couldn't find delivery to the moon on this site. Would you like me to connect you with a person?",
      citations: [],
      low_confidence: true,
    });
    // "yes" to the unsure reply's offer hands the conversation to a person, with no model asked.
    const yes = await ask(session.jwt, { message: "yes please" });
    expect(yes.json().data).toMatchObject({ content: "", awaiting_human: true });
    expect(model.requests).toHaveLength(1);

    model.respondWith(modelAnswer(["[0] I couldn't find that here."]));
    const { decision, trace } = await turnOf("Do you deliver to the moon?");
    expect(stageOf(trace, "composition")).toMatchObject({ judgement: "model_declined", lowConfidence: true, citedDocumentIds: [], turnedSure: false });
    const composition = explainTurn("Do you deliver to the moon?", "en", "", null, decision, trace).steps.at(-1);
    expect(composition).toEqual({
      stage: "composition",
      summary: "The model (openai:gpt-4o-mini) read the passages and said they do not answer the question, so the reply is marked unsure and offers a person.",
    });
  });

  it("happy: an answer naming no passage is unsure, and its citations are only what its markers name", async () => {
    const session = await startSession(t.app, tenant.agentId);
    model.respondWith(modelAnswer(["Delivery takes three to five working days."]), modelAnswer(["Delivery is free over 50 euros [", "2", "] and takes three to five days [1]."]));
    const unmarked = (await ask(session.jwt, { message: "How long is delivery?" })).json().data;
    expect(unmarked).toMatchObject({ content: "Delivery takes three to five working days.", citations: [], low_confidence: true });

    const marked = (await ask(session.jwt, { message: "Is delivery free?" })).json().data;
    const sent = model.requests[1]!;
    const byNumber = passageUrls(sent);
    expect(marked.low_confidence).toBe(false);
    expect(marked.citations.map((citation: { url: string }) => citation.url)).toEqual([...new Set([byNumber.get(2), byNumber.get(1)])]);
  });
});
