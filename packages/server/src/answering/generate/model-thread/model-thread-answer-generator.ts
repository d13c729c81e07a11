import { Worker } from "node:worker_threads";
import { TurnAdmission } from "../../../event-loop/turn-admission.js";
import type { AnswerEvent, AnswerGenerator, AnswerLogger, AnswerRequest } from "../answer-generator.js";
import type { ModelGeneratorSettings } from "../model-generator-settings.js";
import { restoredError, type AnswerProgress, type FromModelWorker, type ModelAnswerWorkerData, type ToModelWorker } from "./model-thread-protocol.js";

const ANSWERS_DELIVERED_PER_TURN = 64;

export interface ModelThreadOptions {
  settings: ModelGeneratorSettings;
  /** The compiled model-answer-worker.js. */
  workerUrl: URL;
  logger?: AnswerLogger | undefined;
}

/** The events of one answer as they come from the worker, read one at a time. */
class AnswerInbox {
  private readonly events: AnswerEvent[] = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  receive(progress: AnswerProgress): void {
    this.events.push(...progress.events);
    if (progress.failed) this.failure ??= restoredError(progress.failed);
    this.notify();
  }

  fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  async next(): Promise<AnswerEvent> {
    for (;;) {
      const event = this.events.shift();
      if (event) return event;
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

/**
 * A model generator whose work runs in a worker thread: the HTTP stream from the model, its
 * parsing and the SDK's stream pipeline cost a little for every token, and 500 answers streaming
 * at once made that fill this thread's event loop (GET /healthz waited a second). The worker
 * sends every answer's new tokens in one message per turn of its loop, consecutive tokens joined;
 * the text, citations and `done` are the model generator's own. A worker that stops fails the
 * answers it was running (thrown from their iteration: `withFallback` answers with the fallback
 * before the first token, or ends with an error after it), and the next answer starts a new one.
 */
export class ModelThreadAnswerGenerator implements AnswerGenerator {
  readonly id: string;
  private worker: Worker | null = null;
  private readonly inboxes = new Map<number, AnswerInbox>();
  /**
   * The worker's progress, handed to at most 64 answers per turn of the event loop: one message
   * can carry 400 answers' tokens (500 answers that started together end together), and handing
   * them all over at once, with the socket writes and the statements they set off, held the loop
   * for 25–50 ms. Each answer's progress keeps its order (one queue, first in, first out).
   */
  private readonly deliveries = new TurnAdmission(ANSWERS_DELIVERED_PER_TURN);
  private nextId = 1;

  constructor(private readonly options: ModelThreadOptions) {
    this.id = `${options.settings.provider}:${options.settings.modelId}`;
  }

  async *generate(request: AnswerRequest): AsyncGenerator<AnswerEvent> {
    const { signal, ...data } = request;
    const worker = this.running();
    const id = this.nextId++;
    const inbox = new AnswerInbox();
    this.inboxes.set(id, inbox);
    let finished = false;
    const abort = (): void => this.post(worker, { kind: "abort", id });
    this.post(worker, { kind: "generate", id, request: data });
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
    try {
      for (;;) {
        const event = await inbox.next();
        if (event.type === "done") finished = true;
        yield event;
        if (finished) return;
      }
    } finally {
      signal.removeEventListener("abort", abort);
      this.inboxes.delete(id);
      // The caller stopped reading early: the model's request must not go on.
      if (!finished) abort();
    }
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.workerUrl, { workerData: { settings: this.options.settings } satisfies ModelAnswerWorkerData });
    // Answers in progress keep the process busy through their sockets; an idle worker keeps nothing alive.
    worker.unref();
    worker.on("message", (message: FromModelWorker) => {
      if (message.kind === "warn") {
        this.options.logger?.warn(message.err ? { ...message.details, err: restoredError(message.err) } : message.details, message.message);
        return;
      }
      for (const progress of message.answers) this.deliveries.run(() => this.inboxes.get(progress.id)?.receive(progress));
    });
    const stopped = (error: Error): void => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const inbox of this.inboxes.values()) inbox.fail(error);
    };
    worker.on("error", stopped);
    worker.on("exit", (code) => stopped(new Error(`The model worker thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private post(worker: Worker, message: ToModelWorker): void {
    if (this.worker === worker) worker.postMessage(message);
  }
}
