import { beforeAll, describe, expect, test } from "vitest";
import type { AnswerEvent } from "../../../src/answering/generate/answer-generator.js";
import { collectAnswer } from "../../../src/answering/generate/collect-answer.js";
import { createAnswerGenerator } from "../../../src/answering/generate/create-answer-generator.js";
import type { AnswerGeneratorConfig } from "../../../src/config/answering.js";
import { ExtractiveAnswerGenerator } from "../../../src/answering/generate/extractive-answer-generator.js";
import { answerRequest } from "./answer-request.js";
import {
  OPENAI_DONE,
  OPENAI_SERVER_ERROR,
  RECORDED_SHIPPING_ANSWER,
  SHIPPING_ANSWER_TEXT,
  openAiChunkEvents,
} from "./fixtures/openai-chat-stream.js";
import { startLoopbackChatServer, streamedWith, useLoopbackChatServer } from "./loopback-chat-server.js";

const API_KEY = "sk-test-4f9c2a7e";
const MODEL = "gpt-4o-mini";
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-request-id": "req_7d0b3f1c" };

const server = useLoopbackChatServer();

beforeAll(async () => {
  // The first request pays for loading the SDK's lazy parts; keep that out of the timed tests.
  server.respondWith(stream(RECORDED_SHIPPING_ANSWER));
  await collectAnswer(generatorFor().generate(answerRequest()));
});

const stream = streamedWith(SSE_HEADERS);

function generatorFor(config: Partial<AnswerGeneratorConfig> = {}) {
  return createAnswerGenerator({ provider: "openai", baseUrl: `${server.origin}/v1`, apiKey: API_KEY, model: MODEL, ...config });
}

function tokensOf(events: readonly AnswerEvent[]): string[] {
  return events.flatMap((event) => (event.type === "token" ? [event.token] : []));
}

async function eventsOf(iterable: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const events: AnswerEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

const extractiveFallback = {
  ...(await collectAnswer(new ExtractiveAnswerGenerator().generate(answerRequest()))),
  lowConfidence: true,
  generator: "extractive",
};

describe("openai answer generator (happy)", () => {
  test("streams the model's answer without markers and cites the passages they name", async () => {
    server.respondWith(stream(RECORDED_SHIPPING_ANSWER));
    const events = await eventsOf(
      generatorFor().generate(
        answerRequest({
          history: [
            { role: "visitor", content: "Hello! Do you ship to Belgium?" },
            { role: "bot", content: "Yes, we ship to every EU country." },
          ],
        }),
      ),
    );

    const tokens = events.flatMap((event) => (event.type === "token" ? [event.token] : []));
    expect(tokens.length).toBeGreaterThan(10);
    expect(tokens.join("")).toBe(SHIPPING_ANSWER_TEXT);
    expect(tokens.some((token) => /[[\]]/.test(token))).toBe(false);
    expect(events.at(-1)).toEqual({ type: "done", citedDocumentIds: [101, 102], lowConfidence: false, judgement: "answered", generator: "openai:gpt-4o-mini" });
  });

  test("sends the model, the system prompt, the recent turns and the question with the bearer key", async () => {
    server.respondWith(stream(RECORDED_SHIPPING_ANSWER));
    await collectAnswer(
      generatorFor().generate(
        answerRequest({
          language: "de",
          history: [
            { role: "visitor", content: "Hello! Do you ship to Belgium?" },
            { role: "bot", content: "Yes, we ship to every EU country." },
          ],
        }),
      ),
    );

    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/chat/completions" });
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.body).toMatchObject({ model: MODEL, stream: true });
    const messages = request?.body.messages as { role: string; content: string }[];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    const system = messages[0]?.content ?? "";
    expect(system).toContain("You are Mia");
    expect(system).toContain("Tone: warm and to the point.");
    expect(system).toContain("German (de)");
    expect(system).toContain("[1] Shipping — Delivery times\n(https://shop.example/help/shipping)\nWe ship every order");
    expect(system).toContain("[3] About us — Our story");
    expect(messages.slice(1)).toEqual([
      { role: "user", content: "Hello! Do you ship to Belgium?" },
      { role: "assistant", content: "Yes, we ship to every EU country." },
      { role: "user", content: "How long does shipping take, and is it free?" },
    ]);
  });

  test("a base URL without /v1, and a server without a key, work too", async () => {
    server.respondWith(stream(RECORDED_SHIPPING_ANSWER));
    const answer = await collectAnswer(generatorFor({ baseUrl: server.origin, apiKey: undefined }).generate(answerRequest()));
    expect(answer.content).toBe(SHIPPING_ANSWER_TEXT);
    expect(server.requests[0]?.path).toBe("/v1/chat/completions");
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  test("an answer naming no passage is unsure and cites nothing, however sure its words; so is a don't-know without [0]", async () => {
    server.respondWith(
      stream([...openAiChunkEvents(["You can return unopened", " items within 30 days", " of delivery."]), OPENAI_DONE]),
      stream([...openAiChunkEvents(["I couldn't find that here.", " Shall I put you in touch with someone?"]), OPENAI_DONE]),
    );
    const paraphrase = await eventsOf(generatorFor().generate(answerRequest({ question: "Can I return something?" })));
    expect(tokensOf(paraphrase).join("")).toBe("You can return unopened items within 30 days of delivery.");
    expect(paraphrase.at(-1)).toEqual({ type: "done", citedDocumentIds: [], lowConfidence: true, judgement: "model_cited_nothing", generator: "openai:gpt-4o-mini" });
    const unsure = await collectAnswer(generatorFor().generate(answerRequest({ question: "Do you sell gift cards?" })));
    expect(unsure).toMatchObject({ citedDocumentIds: [], lowConfidence: true, generator: "openai:gpt-4o-mini" });
  });

  test("a marker naming a passage the model was not given cites nothing, and the answer is unsure", async () => {
    server.respondWith(stream([...openAiChunkEvents(["Orders ship within 2–3 business days [7]."]), OPENAI_DONE]));
    const answer = await collectAnswer(generatorFor().generate(answerRequest()));
    expect(answer).toEqual({ content: "Orders ship within 2–3 business days.", citedDocumentIds: [], lowConfidence: true, generator: "openai:gpt-4o-mini" });
  });

  test("a model that opens with [0] (the passages do not hold the answer) is flagged low confidence and cites nothing, even a passage it named", async () => {
    server.respondWith(
      stream([...openAiChunkEvents(["[", "0", "] I couldn't find gift cards", " on this site [1].", " Shall I put you in touch with someone?"]), OPENAI_DONE]),
    );
    const answer = await collectAnswer(generatorFor().generate(answerRequest({ question: "Do you sell gift cards?" })));
    expect(answer).toEqual({
      content: "I couldn't find gift cards on this site. Shall I put you in touch with someone?",
      citedDocumentIds: [],
      lowConfidence: true,
      generator: "openai:gpt-4o-mini",
    });
    const system = (server.requests[0]?.body.messages as { content: string }[])[0]?.content ?? "";
    expect(system).toContain("start your reply with [0], then say briefly that you don't know");
  });

  test("when retrieval was unsure the model still gets the passages, and its answer citing them is sure, with what it cited", async () => {
    server.respondWith(stream([...openAiChunkEvents(["Yes: you can return any unopened item", " within 30 days of delivery [2]."]), OPENAI_DONE]));
    const events = await eventsOf(generatorFor().generate(answerRequest({ question: "Can I send back a tin I didn't open?", lowConfidence: true })));
    expect(tokensOf(events).join("")).toBe("Yes: you can return any unopened item within 30 days of delivery.");
    expect(events.at(-1)).toEqual({ type: "done", citedDocumentIds: [102], lowConfidence: false, judgement: "answered", generator: "openai:gpt-4o-mini" });
    const system = (server.requests[0]?.body.messages as { content: string }[])[0]?.content ?? "";
    expect(system).toContain("Passages:");
    expect(system).toContain("[2] Returns and refunds");
    expect(system).toContain("start your reply with [0]");
  });

  test("when retrieval was unsure and the model declines with [0], the reply is unsure and cites nothing", async () => {
    server.respondWith(stream([...openAiChunkEvents(["[0] I couldn't find that on this site.", " Shall I put you in touch with someone?"]), OPENAI_DONE]));
    const events = await eventsOf(generatorFor().generate(answerRequest({ question: "Do you sell gift cards?", lowConfidence: true })));
    expect(tokensOf(events).join("")).toBe("I couldn't find that on this site. Shall I put you in touch with someone?");
    expect(events.at(-1)).toEqual({ type: "done", citedDocumentIds: [], lowConfidence: true, judgement: "model_declined", generator: "openai:gpt-4o-mini" });
    const system = (server.requests[0]?.body.messages as { content: string }[])[0]?.content ?? "";
    expect(system).toContain("Passages:");
  });

  test("with no passages nothing is cited, whatever the model writes", async () => {
    server.respondWith(stream([...openAiChunkEvents(["Hello! How can I help you today", " [1]?"]), OPENAI_DONE]));
    const answer = await collectAnswer(generatorFor().generate(answerRequest({ question: "hi", lowConfidence: true, passages: [] })));
    expect(answer).toEqual({ content: "Hello! How can I help you today?", citedDocumentIds: [], lowConfidence: true, generator: "openai:gpt-4o-mini" });
    const system = (server.requests[0]?.body.messages as { content: string }[])[0]?.content ?? "";
    expect(system).not.toContain("Passages:");
  });
});

describe("openai answer generator (error)", () => {
  test("a 500 falls back to the extractive answer, flagged low confidence", async () => {
    server.respondWith({
      status: 500,
      headers: { "content-type": "application/json" },
      steps: [{ write: JSON.stringify(OPENAI_SERVER_ERROR) }],
    });
    const answer = await collectAnswer(generatorFor().generate(answerRequest()));
    expect(answer).toEqual(extractiveFallback);
    expect(server.requests).toHaveLength(1);
  });

  test("a wrong key (401) falls back too", async () => {
    server.respondWith({
      status: 401,
      headers: { "content-type": "application/json" },
      steps: [{ write: JSON.stringify({ error: { message: "Incorrect API key provided: sk-wrong.", type: "invalid_request_error", param: null, code: "invalid_api_key" } }) }],
    });
    expect(await collectAnswer(generatorFor({ apiKey: "sk-wrong" }).generate(answerRequest()))).toEqual(extractiveFallback);
  });

  test("an unreachable server falls back", async () => {
    const gone = await startLoopbackChatServer();
    await gone.close();
    expect(await collectAnswer(generatorFor({ baseUrl: gone.origin }).generate(answerRequest()))).toEqual(extractiveFallback);
  });

  test("a server silent past the timeout before its first token falls back, and the request is dropped", async () => {
    server.respondWith(stream([], [{ stall: true }]));
    const answer = await collectAnswer(generatorFor({ timeoutSeconds: 1 }).generate(answerRequest()));
    expect(answer).toEqual(extractiveFallback);
    expect(await server.requests[0]?.closed).toEqual({ finished: false });
  });

  test("a connection closed mid-stream ends the streamed tokens with an error event", async () => {
    const events = openAiChunkEvents(["Orders placed before 2 pm", " ship within", " 2–3 business days [", "1"], { finish: false });
    server.respondWith(stream(events, [{ pauseMs: 50 }, { destroy: true }]));
    const received = await eventsOf(generatorFor().generate(answerRequest()));
    expect(received).toEqual([
      { type: "token", token: "Orders placed before 2 pm" },
      { type: "token", token: " ship within" },
      { type: "token", token: " 2–3 business days" },
      { type: "token", token: " [1" },
      { type: "error", code: "generation_failed", message: "The answer was interrupted. Please try again." },
      // The marker never closed: the part written names no passage.
      { type: "done", citedDocumentIds: [], lowConfidence: true, judgement: "model_cited_nothing", generator: "openai:gpt-4o-mini" },
    ]);
  });

  test("a server that stalls after some tokens is cut short with a timeout error", async () => {
    server.respondWith(stream(openAiChunkEvents(["Orders ship", " within 2–3 days [1]."], { finish: false }), [{ stall: true }]));
    const answer = await collectAnswer(generatorFor({ timeoutSeconds: 1 }).generate(answerRequest()));
    expect(answer).toMatchObject({
      content: "Orders ship within 2–3 days.",
      citedDocumentIds: [101],
      generator: "openai:gpt-4o-mini",
      error: { code: "generation_timeout" },
    });
    expect(await server.requests[0]?.closed).toEqual({ finished: false });
  });
});

describe("openai answer generator (abort)", () => {
  test("a client that goes away mid-stream stops the request and the iteration", async () => {
    server.respondWith(stream(openAiChunkEvents(["Good question.", " Orders placed before 2 pm [1]"], { finish: false }), [{ stall: true }]));
    const controller = new AbortController();
    const events: AnswerEvent[] = [];
    const started = Date.now();
    for await (const event of generatorFor().generate(answerRequest({ signal: controller.signal }))) {
      events.push(event);
      if (event.type === "token") controller.abort();
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(events).toEqual([
      { type: "token", token: "Good question." },
      { type: "done", citedDocumentIds: [], lowConfidence: true, judgement: "interrupted", generator: "openai:gpt-4o-mini" },
    ]);
    expect(await server.requests[0]?.closed).toEqual({ finished: false });
  });
});
