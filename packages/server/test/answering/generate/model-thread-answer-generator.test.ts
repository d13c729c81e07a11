import { describe, expect, test } from "vitest";
import type { AnswerEvent } from "../../../src/answering/generate/answer-generator.js";
import { collectAnswer } from "../../../src/answering/generate/collect-answer.js";
import { createAnswerGenerator } from "../../../src/answering/generate/create-answer-generator.js";
import type { AnswerGeneratorConfig } from "../../../src/config/answering.js";
import { ExtractiveAnswerGenerator } from "../../../src/answering/generate/extractive-answer-generator.js";
import { capturedLogger } from "../../support/captured-log.js";
import { compiledWorkerUrl } from "../../support/compiled-worker.js";
import { answerRequest } from "./answer-request.js";
import { OPENAI_DONE, RECORDED_SHIPPING_ANSWER, SHIPPING_ANSWER_TEXT, openAiChunkEvents } from "./fixtures/openai-chat-stream.js";
import { streamedWith, useLoopbackChatServer } from "./loopback-chat-server.js";

// The model generator run in a worker thread (createAnswerGenerator's `thread`), as `serve` runs it.
const MODEL = "gpt-4o-mini";
const SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };
const workerUrl = compiledWorkerUrl("answering/generate/model-thread/model-answer-worker.js");

const server = useLoopbackChatServer();

const stream = streamedWith(SSE_HEADERS);

function threaded(config: Partial<AnswerGeneratorConfig> = {}, options: { workerUrl?: URL; logger?: ReturnType<typeof capturedLogger>["logger"] } = {}) {
  return createAnswerGenerator(
    { provider: "openai", baseUrl: `${server.origin}/v1`, apiKey: "sk-test", model: MODEL, ...config },
    { thread: { workerUrl: options.workerUrl ?? workerUrl }, ...(options.logger ? { logger: options.logger } : {}) },
  );
}

async function eventsOf(iterable: AsyncIterable<AnswerEvent>): Promise<AnswerEvent[]> {
  const events: AnswerEvent[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe("model generator in a worker thread (happy)", () => {
  test("streams the same answer, citations and done as in this thread", async () => {
    server.respondWith(stream(RECORDED_SHIPPING_ANSWER), stream(RECORDED_SHIPPING_ANSWER));
    const inThread = await collectAnswer(threaded().generate(answerRequest()));
    const inline = await collectAnswer(createAnswerGenerator({ provider: "openai", baseUrl: `${server.origin}/v1`, apiKey: "sk-test", model: MODEL }).generate(answerRequest()));
    expect(inThread).toEqual({ content: SHIPPING_ANSWER_TEXT, citedDocumentIds: [101, 102], lowConfidence: false, generator: "openai:gpt-4o-mini" });
    expect(inThread).toEqual(inline);
    expect(server.requests[0]?.body).toMatchObject({ model: MODEL, stream: true });
  });

  test("answers at once are kept apart, each with its own text", async () => {
    const answers = ["Orders ship within 2 days [1].", "Returns are free for 30 days [2].", "We are a family firm [3]."];
    server.respondWith(...answers.map((text) => stream([...openAiChunkEvents(text.split(/(?<= )/)), OPENAI_DONE], [{ pauseMs: 20 }])));
    const generator = threaded();
    const results = await Promise.all(answers.map(() => collectAnswer(generator.generate(answerRequest()))));
    expect(results.map((result) => result.content).sort()).toEqual(["Orders ship within 2 days.", "Returns are free for 30 days.", "We are a family firm."]);
  });

  test("more answers at once than one turn of the event loop delivers: each gets all its tokens, in order", async () => {
    // The worker's message then carries more answers' tokens than are delivered in one turn (64):
    // the rest follow in the next turns, and no answer's tokens may be reordered or lost.
    const answers = Array.from({ length: 150 }, (_, answer) => `Answer ${answer} has five pieces.`);
    const piecewise = (events: string[]) => ({ status: 200, headers: SSE_HEADERS, steps: events.flatMap((write) => [{ write }, { pauseMs: 5 }]) });
    server.respondWith(...answers.map((text) => piecewise([...openAiChunkEvents(text.split(/(?<= )/)), OPENAI_DONE])));
    const generator = threaded();
    const results = await Promise.all(answers.map(() => collectAnswer(generator.generate(answerRequest()))));
    expect(results.map((result) => result.content).sort()).toEqual([...answers].sort());
  });
});

describe("model generator in a worker thread (error)", () => {
  test("a connection closed mid-stream ends with an error event, and the cause is logged in this thread", async () => {
    const { logger, lines } = capturedLogger();
    server.respondWith(stream(openAiChunkEvents(["Orders placed before 2 pm", " ship within [1]"], { finish: false }), [{ pauseMs: 50 }, { destroy: true }]));
    const events = await eventsOf(threaded({}, { logger }).generate(answerRequest()));
    expect(events.filter((event) => event.type === "token").map((event) => (event.type === "token" ? event.token : "")).join("")).toBe("Orders placed before 2 pm ship within");
    expect(events.slice(-2)).toEqual([
      { type: "error", code: "generation_failed", message: "The answer was interrupted. Please try again." },
      { type: "done", citedDocumentIds: [101], lowConfidence: false, judgement: "answered", generator: "openai:gpt-4o-mini" },
    ]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, msg: "The answer model failed (generation_failed)", generator: "openai:gpt-4o-mini", err: expect.objectContaining({ message: expect.any(String) }) }));
  });

  test("a worker that cannot start answers with the extractive fallback, logged", async () => {
    const { logger, lines } = capturedLogger();
    const missing = new URL("./missing-model-answer-worker.js", import.meta.url);
    const answer = await collectAnswer(threaded({}, { workerUrl: missing, logger }).generate(answerRequest()));
    expect(answer).toEqual({ ...(await collectAnswer(new ExtractiveAnswerGenerator().generate(answerRequest()))), lowConfidence: true, generator: "extractive" });
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, reason: "failed", fallback: "extractive" }));
    expect(server.requests).toHaveLength(0);
  });
});

describe("model generator in a worker thread (abort)", () => {
  test("a client that goes away mid-stream stops the model's request", async () => {
    server.respondWith(stream(openAiChunkEvents(["Good question.", " Orders placed before 2 pm [1]"], { finish: false }), [{ stall: true }]));
    const controller = new AbortController();
    const events: AnswerEvent[] = [];
    for await (const event of threaded().generate(answerRequest({ signal: controller.signal }))) {
      events.push(event);
      if (event.type === "token") controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: "done", generator: "openai:gpt-4o-mini" });
    expect(await server.requests[0]?.closed).toEqual({ finished: false });
  });

  test("a caller that stops reading early stops the model's request too", async () => {
    server.respondWith(stream(openAiChunkEvents(["Good question."], { finish: false }), [{ stall: true }]));
    for await (const event of threaded().generate(answerRequest())) {
      if (event.type === "token") break;
    }
    expect(await server.requests[0]?.closed).toEqual({ finished: false });
  });
});
