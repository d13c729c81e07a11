import {
  answerErrorMessages,
  type AnswerEvent,
  type AnswerGenerator,
  type AnswerLogger,
  type AnswerRequest,
} from "./answer-generator.js";

export interface FallbackOptions {
  /** How long the primary generator may take to its first token before the fallback answers. */
  firstTokenTimeoutMs: number;
  logger?: AnswerLogger;
}

/** Why the fallback answered: the primary failed, was silent too long, or ended without a word. */
export type FallbackReason = "failed" | "timeout" | "empty";

type FirstOutcome =
  | { kind: "token"; event: AnswerEvent }
  | { kind: "fallback"; reason: FallbackReason; cause: unknown }
  | { kind: "aborted" };

const TIMEOUT = Symbol("timeout");
const ABORTED = Symbol("aborted");

function afterDelay(milliseconds: number): { promise: Promise<typeof TIMEOUT>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT), milliseconds);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

function whenAborted(signal: AbortSignal): { promise: Promise<typeof ABORTED>; cancel: () => void } {
  let listener = (): void => {};
  const promise = new Promise<typeof ABORTED>((resolve) => {
    listener = () => resolve(ABORTED);
    if (signal.aborted) resolve(ABORTED);
    else signal.addEventListener("abort", listener, { once: true });
  });
  return { promise, cancel: () => signal.removeEventListener("abort", listener) };
}

/** Reads the primary's events until its first token, a failure, its end, the timeout or an abort. */
async function awaitFirstToken(
  events: AsyncIterator<AnswerEvent>,
  request: AnswerRequest,
  timeoutMs: number,
): Promise<FirstOutcome> {
  const timeout = afterDelay(timeoutMs);
  const aborted = whenAborted(request.signal);
  try {
    for (;;) {
      const next = events.next();
      next.catch(() => {});
      const result = await Promise.race([next, timeout.promise, aborted.promise]);
      if (result === ABORTED) return { kind: "aborted" };
      if (result === TIMEOUT) return { kind: "fallback", reason: "timeout", cause: new Error(`No first token within ${timeoutMs} ms`) };
      if (result.done === true) return { kind: "fallback", reason: "empty", cause: undefined };
      const event = result.value;
      if (event.type === "token") return { kind: "token", event };
      if (event.type === "error") return { kind: "fallback", reason: "failed", cause: event };
      return request.signal.aborted ? { kind: "aborted" } : { kind: "fallback", reason: "empty", cause: undefined };
    }
  } catch (error) {
    return { kind: "fallback", reason: "failed", cause: error };
  } finally {
    timeout.cancel();
    aborted.cancel();
  }
}

/**
 * The visitor always gets an answer: when `primary` fails, answers nothing, or is silent past
 * `firstTokenTimeoutMs` before its first token, its request is aborted and `fallback` answers
 * instead, its `done` flagged `lowConfidence: true` (judgement `fell_back`). Once the primary has
 * sent a token it is never replaced: a later failure reaches the caller as the primary's `error`
 * event (or, if the primary broke the protocol by throwing, as one made here) followed by `done`.
 */
export function withFallback(primary: AnswerGenerator, fallback: AnswerGenerator, options: FallbackOptions): AnswerGenerator {
  async function* generate(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
    const controller = new AbortController();
    const forwardAbort = (): void => controller.abort(request.signal.reason);
    if (request.signal.aborted) forwardAbort();
    else request.signal.addEventListener("abort", forwardAbort, { once: true });
    const events = primary.generate({ ...request, signal: controller.signal })[Symbol.asyncIterator]();
    try {
      const first = await awaitFirstToken(events, request, options.firstTokenTimeoutMs);
      if (first.kind === "aborted") {
        yield { type: "done", citedDocumentIds: [], lowConfidence: request.lowConfidence, judgement: "interrupted", generator: primary.id };
        return;
      }
      if (first.kind === "fallback") {
        controller.abort();
        options.logger?.warn(
          { err: first.cause, generator: primary.id, fallback: fallback.id, reason: first.reason },
          `ANSWER FALLBACK: ${primary.id} gave no answer (${first.reason}); answering with ${fallback.id}`,
        );
        for await (const event of fallback.generate(request)) {
          yield event.type === "done" ? { ...event, lowConfidence: true, judgement: "fell_back" } : event;
        }
        return;
      }
      yield first.event;
      yield* rest(events, primary.id, options.logger);
    } finally {
      request.signal.removeEventListener("abort", forwardAbort);
      // Stops the primary's request, also when the caller stopped reading early.
      controller.abort();
      events.return?.().catch(() => {});
    }
  }
  return { id: primary.id, generate };
}

/** Passes the primary's events on after its first token, making sure the stream ends with `done`. */
async function* rest(events: AsyncIterator<AnswerEvent>, generator: string, logger: AnswerLogger | undefined): AsyncGenerator<AnswerEvent> {
  try {
    for (;;) {
      const result = await events.next();
      if (result.done === true) break;
      yield result.value;
      if (result.value.type === "done") return;
    }
  } catch (error) {
    logger?.warn({ err: error, generator }, "The answer generator failed after its first token");
  }
  yield { type: "error", code: "generation_failed", message: answerErrorMessages.generation_failed };
  yield { type: "done", citedDocumentIds: [], lowConfidence: true, judgement: "interrupted", generator };
}
