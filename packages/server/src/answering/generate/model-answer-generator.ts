import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3, LanguageModelV3Prompt } from "@ai-sdk/provider";
import {
  answerErrorMessages,
  type AnswerErrorCode,
  type AnswerEvent,
  type AnswerGenerator,
  type AnswerJudgement,
  type AnswerLogger,
  type AnswerRequest,
} from "./answer-generator.js";
import { buildPrompt, NO_ANSWER_NUMBER, type AnswerPrompt } from "./build-prompt.js";
import { CitationMarkerStripper } from "./citation-marker-stripper.js";
import type { ModelGeneratorSettings } from "./model-generator-settings.js";
import { readUntilAborted } from "./read-until-aborted.js";

export interface ModelAnswerGeneratorOptions {
  /** e.g. `openai:gpt-4o-mini`. */
  id: string;
  /** A chat model of an AI SDK provider. */
  model: LanguageModelV3;
  /** Longest wait for the model's next chunk, the first included, before the answer is cut short. */
  idleTimeoutMs: number;
  logger?: AnswerLogger;
}

/** Why the model stopped, when it did not finish. */
type Interruption = { kind: "aborted" } | { kind: "failed"; code: AnswerErrorCode; cause: unknown };

/** The prompt as the AI SDK's language model specification takes it. */
function modelPrompt({ system, messages }: AnswerPrompt): LanguageModelV3Prompt {
  return [
    { role: "system", content: system },
    ...messages.map(({ role, content }) => ({ role, content: [{ type: "text" as const, text: content }] })),
  ];
}

/**
 * Answers with a chat model through its AI SDK provider, streaming its text with the
 * `[n]` markers removed (see CitationMarkerStripper) and citing the passages they name.
 *
 * The model judges whether the passages answer the question: it reads every retrieved passage,
 * also when retrieval was unsure of them (`request.lowConfidence` is not its verdict), and its
 * reply is sure only when it cites a passage it was given. One that opens with `[0]` (the prompt's
 * "the passages do not hold the answer") is unsure and cites nothing; one that names no passage is
 * unsure too (nothing shows it rests on the site), however confident its words. With no passage,
 * the model is told to offer a person and its reply is unsure (see `judgementOf`).
 * A failure or a silence longer than `idleTimeoutMs` becomes an `error` event; aborting the
 * request's signal aborts the HTTP request and ends the stream with `done` at once.
 *
 * The provider's stream is read directly (`doStream`), not through `streamText`: the prompt is
 * plain text, with no tools, steps, retries or telemetry, and `streamText`'s pipeline made a
 * 40-chunk answer cost 5.4–5.8 ms of CPU instead of 2.3–2.4 (`bench/model-stream-cost.mjs`).
 * A failed request falls back to the extractive answer at once instead of being retried.
 */
export class ModelAnswerGenerator implements AnswerGenerator {
  readonly id: string;

  constructor(private readonly options: ModelAnswerGeneratorOptions) {
    this.id = options.id;
  }

  async *generate(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
    const controller = new AbortController();
    let interruption: Interruption | undefined;
    const interrupt = (reason: Interruption): void => {
      interruption ??= reason;
      controller.abort();
    };
    const onClientAbort = (): void => interrupt({ kind: "aborted" });
    if (request.signal.aborted) onClientAbort();
    else request.signal.addEventListener("abort", onClientAbort, { once: true });
    const { idleTimeoutMs } = this.options;
    const silence = new Error(`The model sent nothing for ${idleTimeoutMs} ms`);
    let idleTimer: NodeJS.Timeout | undefined;
    const resetIdleTimer = (): void => {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => interrupt({ kind: "failed", code: "generation_timeout", cause: silence }), idleTimeoutMs);
    };

    const stripper = new CitationMarkerStripper();
    let answer = "";
    try {
      resetIdleTimer();
      const { stream } = await this.options.model.doStream({ prompt: modelPrompt(buildPrompt(request)), abortSignal: controller.signal });
      for await (const part of readUntilAborted(stream, controller.signal)) {
        resetIdleTimer();
        if (part.type === "error") {
          interrupt({ kind: "failed", code: "generation_failed", cause: part.error });
        } else if (part.type === "text-delta") {
          const visible = stripper.push(part.delta);
          answer += visible;
          if (visible !== "") yield { type: "token", token: visible };
        }
      }
    } catch (error) {
      interrupt({ kind: "failed", code: "generation_failed", cause: error });
    } finally {
      clearTimeout(idleTimer);
      request.signal.removeEventListener("abort", onClientAbort);
      // Also when the caller stopped iterating early: the HTTP request must not go on.
      controller.abort();
    }

    const rest = stripper.flush();
    answer += rest;
    if (rest !== "") yield { type: "token", token: rest };
    if (interruption?.kind === "failed") {
      this.options.logger?.warn(
        { err: interruption.cause, generator: this.id, answeredCharacters: answer.length },
        `The answer model failed (${interruption.code})`,
      );
      yield { type: "error", code: interruption.code, message: answerErrorMessages[interruption.code] };
    }
    const cited = citedDocuments(request, stripper.citedNumbers);
    // A visitor who left gets no verdict: the part written rests on nothing yet.
    const judgement = interruption?.kind === "aborted" ? "interrupted" : judgementOf(request, stripper.citedNumbers, cited);
    yield { type: "done", citedDocumentIds: judgement === "answered" ? cited : [], lowConfidence: judgement !== "answered", judgement, generator: this.id };
  }
}

/** The documents of the passages the model's markers name, each once, in first-cited order (`[0]` and numbers it was not given name none). */
function citedDocuments(request: AnswerRequest, numbers: readonly number[]): number[] {
  const documentIds: number[] = [];
  for (const number of numbers) {
    const passage = request.passages.find((candidate) => candidate.number === number);
    if (passage !== undefined && !documentIds.includes(passage.documentId)) documentIds.push(passage.documentId);
  }
  return documentIds;
}

/**
 * The model's own verdict: with passages, its reply answers only when it cites one of them and
 * did not say (`[0]`) that they do not hold the answer; a decline naming a passage still cites
 * nothing, since it rests on none.
 */
function judgementOf(request: AnswerRequest, numbers: readonly number[], cited: readonly number[]): AnswerJudgement {
  if (request.passages.length === 0) return "nothing_retrieved";
  if (numbers.includes(NO_ANSWER_NUMBER)) return "model_declined";
  return cited.length === 0 ? "model_cited_nothing" : "answered";
}

/** The model generator of checked settings, streaming in the thread that calls it. */
export function createModelAnswerGenerator(settings: ModelGeneratorSettings, logger?: AnswerLogger): ModelAnswerGenerator {
  const model =
    settings.provider === "openai"
      ? createOpenAICompatible({
          name: "openai-compatible",
          baseURL: settings.baseUrl,
          ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
        }).chatModel(settings.modelId)
      : createAnthropic({ baseURL: settings.baseUrl, apiKey: settings.apiKey ?? "" }).messages(settings.modelId);
  return new ModelAnswerGenerator({
    id: `${settings.provider}:${settings.modelId}`,
    model,
    idleTimeoutMs: settings.timeoutMs,
    logger,
  });
}
