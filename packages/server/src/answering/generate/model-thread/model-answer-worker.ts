import { parentPort, workerData } from "node:worker_threads";
import { lowerOwnThreadPriority } from "../../../event-loop/thread-priority.js";
import type { AnswerEvent, AnswerLogger } from "../answer-generator.js";
import { createModelAnswerGenerator } from "../model-answer-generator.js";
import { crossedError, type AnswerProgress, type FromModelWorker, type ModelAnswerWorkerData, type ToModelWorker } from "./model-thread-protocol.js";

/**
 * The worker thread of ModelThreadAnswerGenerator: runs the model generator (the HTTP stream, its
 * parsing and the SDK's stream pipeline, all per token) for every answer, and sends the main
 * thread what each answer did in one message per turn of this thread's event loop.
 */
function parentPortOf(): NonNullable<typeof parentPort> {
  if (!parentPort) throw new Error("model-answer-worker runs as a worker thread");
  return parentPort;
}
const port = parentPortOf();

// Tokens are throughput, the event loop is latency: this thread yields to it (see thread-priority.ts).
lowerOwnThreadPriority();
const { settings } = workerData as ModelAnswerWorkerData;

const logger: AnswerLogger = {
  warn(details, message) {
    const { err, ...rest } = details as Record<string, unknown>;
    port.postMessage({ kind: "warn", details: rest, ...(err === undefined ? {} : { err: crossedError(err) }), message } satisfies FromModelWorker);
  },
};
const generator = createModelAnswerGenerator(settings, logger);
const running = new Map<number, AbortController>();
const outbox = new Map<number, AnswerProgress>();
let sendScheduled = false;

function progressOf(id: number): AnswerProgress {
  let progress = outbox.get(id);
  if (!progress) {
    progress = { id, events: [] };
    outbox.set(id, progress);
  }
  if (!sendScheduled) {
    sendScheduled = true;
    setImmediate(send);
  }
  return progress;
}

function queue(id: number, event: AnswerEvent): void {
  const { events } = progressOf(id);
  const last = events.at(-1);
  if (event.type === "token" && last?.type === "token") last.token += event.token;
  else events.push(event.type === "token" ? { ...event } : event);
}

function send(): void {
  sendScheduled = false;
  const answers = [...outbox.values()];
  outbox.clear();
  port.postMessage({ kind: "progress", answers } satisfies FromModelWorker);
}

async function run(id: number, request: Extract<ToModelWorker, { kind: "generate" }>["request"]): Promise<void> {
  const controller = new AbortController();
  running.set(id, controller);
  try {
    for await (const event of generator.generate({ ...request, signal: controller.signal })) queue(id, event);
  } catch (error) {
    progressOf(id).failed = crossedError(error);
  } finally {
    running.delete(id);
  }
}

port.on("message", (message: ToModelWorker) => {
  if (message.kind === "abort") running.get(message.id)?.abort();
  else void run(message.id, message.request);
});
