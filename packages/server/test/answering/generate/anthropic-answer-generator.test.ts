import { describe, expect, test } from "vitest";
import type { AnswerEvent } from "../../../src/answering/generate/answer-generator.js";
import { collectAnswer } from "../../../src/answering/generate/collect-answer.js";
import { createAnswerGenerator } from "../../../src/answering/generate/create-answer-generator.js";
import type { AnswerGeneratorConfig } from "../../../src/config/answering.js";
import { ExtractiveAnswerGenerator } from "../../../src/answering/generate/extractive-answer-generator.js";
import { answerRequest } from "./answer-request.js";
import {
  ANTHROPIC_MODEL,
  ANTHROPIC_OVERLOADED,
  RECORDED_RETURNS_ANSWER,
  RETURNS_ANSWER_TEXT,
  anthropicStreamBrokenOff,
  anthropicStreamEvents,
} from "./fixtures/anthropic-messages-stream.js";
import { useLoopbackChatServer, type ScriptedResponse } from "./loopback-chat-server.js";

const API_KEY = "sk-ant-api03-test-1d2e3f";
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "request-id": "req_011CZ7x2Qv" };
const QUESTION = "Can I return something I bought?";

const server = useLoopbackChatServer();

function stream(events: readonly string[]): ScriptedResponse {
  return { status: 200, headers: SSE_HEADERS, steps: events.map((write) => ({ write })) };
}

function generatorFor(config: Partial<AnswerGeneratorConfig> = {}) {
  return createAnswerGenerator({ provider: "anthropic", baseUrl: server.origin, apiKey: API_KEY, model: ANTHROPIC_MODEL, ...config });
}

describe("anthropic answer generator (happy)", () => {
  test("streams Claude's answer without markers and cites the passages it names", async () => {
    server.respondWith(stream(RECORDED_RETURNS_ANSWER));
    const events: AnswerEvent[] = [];
    const request = answerRequest({
      question: QUESTION,
      language: "fr",
      history: [
        { role: "bot", content: "Hi! I'm Mia. How can I help?" },
        { role: "visitor", content: "I ordered green tea last week." },
        { role: "operator", content: "Hello, Paul here from the shop." },
      ],
    });
    for await (const event of generatorFor().generate(request)) events.push(event);

    const tokens = events.flatMap((event) => (event.type === "token" ? [event.token] : []));
    expect(tokens.length).toBeGreaterThan(1);
    expect(tokens.join("")).toBe(RETURNS_ANSWER_TEXT);
    expect(events.at(-1)).toEqual({
      type: "done",
      citedDocumentIds: [102],
      lowConfidence: false,
      judgement: "answered",
      generator: `anthropic:${ANTHROPIC_MODEL}`,
    });

    expect(server.requests).toHaveLength(1);
    const [sent] = server.requests;
    expect(sent).toMatchObject({ method: "POST", path: "/v1/messages" });
    expect(sent?.headers["x-api-key"]).toBe(API_KEY);
    expect(sent?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(sent?.body).toMatchObject({ model: ANTHROPIC_MODEL, stream: true });
    const system = JSON.stringify(sent?.body.system);
    expect(system).toContain("You are Mia");
    expect(system).toContain("French (fr)");
    expect(system).toContain("[2] Returns and refunds");
    expect(sent?.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "I ordered green tea last week." }] },
      { role: "assistant", content: [{ type: "text", text: "Staff: Hello, Paul here from the shop." }] },
      { role: "user", content: [{ type: "text", text: QUESTION }] },
    ]);
  });
});

describe("anthropic answer generator (the model judges)", () => {
  test("when retrieval was unsure Claude still gets the passages; its answer citing one is sure and cites that page", async () => {
    server.respondWith(stream(anthropicStreamEvents(["Yes, within 30 days", " of delivery, if it is unopened [2]."])));
    const events: AnswerEvent[] = [];
    for await (const event of generatorFor().generate(answerRequest({ question: "Can I send back a tin I didn't open?", lowConfidence: true }))) events.push(event);
    expect(events.at(-1)).toEqual({ type: "done", citedDocumentIds: [102], lowConfidence: false, judgement: "answered", generator: `anthropic:${ANTHROPIC_MODEL}` });
    const system = JSON.stringify(server.requests[0]?.body.system);
    expect(system).toContain("Passages:");
    expect(system).toContain("[2] Returns and refunds");
  });

  test("when Claude says the passages do not answer ([0]), the reply is unsure and cites nothing", async () => {
    server.respondWith(stream(anthropicStreamEvents(["[0] I couldn't find gift cards here.", " Would you like me to connect you with someone from the team?"])));
    const answer = await collectAnswer(generatorFor().generate(answerRequest({ question: "Do you sell gift cards?", lowConfidence: true })));
    expect(answer).toEqual({
      content: "I couldn't find gift cards here. Would you like me to connect you with someone from the team?",
      citedDocumentIds: [],
      lowConfidence: true,
      generator: `anthropic:${ANTHROPIC_MODEL}`,
    });
  });

  test("an answer of Claude naming no passage is unsure", async () => {
    server.respondWith(stream(anthropicStreamEvents(["Yes, within 30 days of delivery."])));
    const answer = await collectAnswer(generatorFor().generate(answerRequest({ question: QUESTION })));
    expect(answer).toMatchObject({ citedDocumentIds: [], lowConfidence: true });
  });
});

describe("anthropic answer generator (error)", () => {
  test("an overloaded API (529) falls back to the extractive answer, flagged low confidence", async () => {
    server.respondWith({
      status: 529,
      headers: { "content-type": "application/json", "request-id": "req_011CZ7x9Rk" },
      steps: [{ write: JSON.stringify(ANTHROPIC_OVERLOADED) }],
    });
    const answer = await collectAnswer(generatorFor().generate(answerRequest({ question: QUESTION })));
    const extractive = await collectAnswer(new ExtractiveAnswerGenerator().generate(answerRequest({ question: QUESTION })));
    expect(answer).toEqual({ ...extractive, lowConfidence: true, generator: "extractive" });
  });

  test("an error event after some text ends the answer with an error event", async () => {
    server.respondWith(stream(anthropicStreamBrokenOff(["Yes — you can return any unopened item", " within 30 days [2]."])));
    const events: AnswerEvent[] = [];
    for await (const event of generatorFor().generate(answerRequest({ question: QUESTION }))) events.push(event);
    expect(events).toEqual([
      { type: "token", token: "Yes — you can return any unopened item" },
      { type: "token", token: " within 30 days." },
      { type: "error", code: "generation_failed", message: "The answer was interrupted. Please try again." },
      { type: "done", citedDocumentIds: [102], lowConfidence: false, judgement: "answered", generator: `anthropic:${ANTHROPIC_MODEL}` },
    ]);
  });
});
