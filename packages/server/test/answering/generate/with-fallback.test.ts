import { describe, expect, test } from "vitest";
import type { AnswerEvent, AnswerGenerator, AnswerRequest } from "../../../src/answering/generate/answer-generator.js";
import { collectAnswer } from "../../../src/answering/generate/collect-answer.js";
import { ExtractiveAnswerGenerator } from "../../../src/answering/generate/extractive-answer-generator.js";
import { withFallback } from "../../../src/answering/generate/with-fallback.js";
import { answerRequest } from "./answer-request.js";

type Step = AnswerEvent | { throw: string } | { waitForAbort: true };

/** A generator playing a script, recording the signal it was given; stands in for a model. */
function scripted(steps: readonly Step[]): AnswerGenerator & { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    id: "scripted:model",
    signals,
    async *generate(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
      signals.push(request.signal);
      for (const step of steps) {
        if ("throw" in step) throw new Error(step.throw);
        if ("waitForAbort" in step) {
          await new Promise((resolve) => request.signal.addEventListener("abort", resolve, { once: true }));
          continue;
        }
        yield step;
      }
    },
  };
}

function recordingLogger(): { warnings: { details: object; message: string }[]; warn(details: object, message: string): void } {
  const warnings: { details: object; message: string }[] = [];
  return { warnings, warn: (details, message) => warnings.push({ details, message }) };
}

const extractive = new ExtractiveAnswerGenerator();
const extractiveAnswer = await collectAnswer(extractive.generate(answerRequest()));
const modelDone: AnswerEvent = { type: "done", citedDocumentIds: [102], lowConfidence: false, judgement: "answered", generator: "scripted:model" };

describe("with fallback (happy)", () => {
  test("passes the primary's answer through untouched", async () => {
    const primary = scripted([{ type: "token", token: "Within" }, { type: "token", token: " 3 days." }, modelDone]);
    const answer = await collectAnswer(withFallback(primary, extractive, { firstTokenTimeoutMs: 5_000 }).generate(answerRequest()));
    expect(answer).toEqual({ content: "Within 3 days.", citedDocumentIds: [102], lowConfidence: false, generator: "scripted:model" });
  });

  test("keeps the primary's id", () => {
    expect(withFallback(scripted([]), extractive, { firstTokenTimeoutMs: 1 }).id).toBe("scripted:model");
  });
});

describe("with fallback (error)", () => {
  test.each<[string, Step[]]>([
    ["throws", [{ throw: "connect ECONNREFUSED 127.0.0.1:11434" }]],
    ["reports an error", [{ type: "error", code: "generation_failed", message: "x" }, modelDone]],
    ["answers nothing", [modelDone]],
    ["ends without done", []],
  ])("answers extractively, flagged low confidence, when the primary %s before its first token", async (_, steps) => {
    const logger = recordingLogger();
    const generator = withFallback(scripted(steps), extractive, { firstTokenTimeoutMs: 5_000, logger });
    const events: AnswerEvent[] = [];
    for await (const event of generator.generate(answerRequest())) events.push(event);
    const answer = await collectAnswer((async function* () {
      yield* events;
    })());
    expect(answer).toEqual({ ...extractiveAnswer, lowConfidence: true, generator: "extractive" });
    expect(events.at(-1)).toMatchObject({ type: "done", judgement: "fell_back" });
    expect(logger.warnings).toHaveLength(1);
    expect(logger.warnings[0]?.message).toMatch(/^ANSWER FALLBACK: scripted:model gave no answer/);
  });

  test("answers extractively when the primary is silent past the timeout, and aborts it", async () => {
    const primary = scripted([{ waitForAbort: true }, { type: "token", token: "too late" }, modelDone]);
    const logger = recordingLogger();
    const answer = await collectAnswer(withFallback(primary, extractive, { firstTokenTimeoutMs: 50, logger }).generate(answerRequest()));
    expect(answer.generator).toBe("extractive");
    expect(answer.lowConfidence).toBe(true);
    expect(answer.content).not.toContain("too late");
    expect(primary.signals[0]?.aborted).toBe(true);
    expect(logger.warnings[0]?.details).toMatchObject({ reason: "timeout", generator: "scripted:model", fallback: "extractive" });
  });

  test("after the first token it never switches: a failure becomes an error event, then done", async () => {
    const primary = scripted([{ type: "token", token: "Orders ship" }, { throw: "socket hang up" }]);
    const events: AnswerEvent[] = [];
    for await (const event of withFallback(primary, extractive, { firstTokenTimeoutMs: 5_000 }).generate(answerRequest())) {
      events.push(event);
    }
    expect(events).toEqual([
      { type: "token", token: "Orders ship" },
      { type: "error", code: "generation_failed", message: "The answer was interrupted. Please try again." },
      { type: "done", citedDocumentIds: [], lowConfidence: true, judgement: "interrupted", generator: "scripted:model" },
    ]);
  });

  test("collecting an interrupted answer keeps the part that was generated and the error", async () => {
    const primary = scripted([
      { type: "token", token: "Orders ship" },
      { type: "error", code: "generation_timeout", message: "The answer took too long and was cut short. Please try again." },
      { ...modelDone, citedDocumentIds: [101] },
    ]);
    const answer = await collectAnswer(withFallback(primary, extractive, { firstTokenTimeoutMs: 5_000 }).generate(answerRequest()));
    expect(answer).toEqual({
      content: "Orders ship",
      citedDocumentIds: [101],
      lowConfidence: false,
      generator: "scripted:model",
      error: { code: "generation_timeout", message: "The answer took too long and was cut short. Please try again." },
    });
  });
});

describe("with fallback (abort)", () => {
  test("a client that leaves before the first token gets done, no fallback answer", async () => {
    const controller = new AbortController();
    const primary = scripted([{ waitForAbort: true }, modelDone]);
    const generating = collectAnswer(withFallback(primary, extractive, { firstTokenTimeoutMs: 5_000 }).generate(answerRequest({ signal: controller.signal })));
    setTimeout(() => controller.abort(), 20);
    const answer = await generating;
    expect(answer).toEqual({ content: "", citedDocumentIds: [], lowConfidence: false, generator: "scripted:model" });
    expect(primary.signals[0]?.aborted).toBe(true);
  });

  test("a caller that stops reading early aborts the primary", async () => {
    const primary = scripted([{ type: "token", token: "a" }, { type: "token", token: "b" }, modelDone]);
    for await (const event of withFallback(primary, extractive, { firstTokenTimeoutMs: 5_000 }).generate(answerRequest())) {
      expect(event).toEqual({ type: "token", token: "a" });
      break;
    }
    expect(primary.signals[0]?.aborted).toBe(true);
  });
});
