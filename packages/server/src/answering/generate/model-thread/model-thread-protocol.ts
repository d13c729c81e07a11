import type { AnswerEvent, AnswerRequest } from "../answer-generator.js";
import type { ModelGeneratorSettings } from "../model-generator-settings.js";

/** The worker's `workerData`. */
export interface ModelAnswerWorkerData {
  settings: ModelGeneratorSettings;
}

/** To the worker: start answer `id`, or stop it (the visitor left, or the caller stopped reading). */
export type ToModelWorker = { kind: "generate"; id: number; request: Omit<AnswerRequest, "signal"> } | { kind: "abort"; id: number };

/** An error as it crosses threads (an SDK error may hold what cannot be cloned). */
export interface CrossedError {
  name: string;
  message: string;
  stack?: string;
}

/**
 * What one answer did since the last batch: its events (consecutive tokens joined into one), or
 * `failed` when its generator threw (it never should: see AnswerGenerator).
 */
export interface AnswerProgress {
  id: number;
  events: AnswerEvent[];
  failed?: CrossedError;
}

/** From the worker: every answer's progress of one turn of its event loop in one message, or a warning for the logger. */
export type FromModelWorker =
  | { kind: "progress"; answers: AnswerProgress[] }
  | { kind: "warn"; details: Record<string, unknown>; err?: CrossedError; message: string };

export function crossedError(error: unknown): CrossedError {
  if (error instanceof Error) return { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { name: "Error", message: String(error) };
}

export function restoredError(crossed: CrossedError): Error {
  const error = new Error(crossed.message);
  error.name = crossed.name;
  if (crossed.stack) error.stack = crossed.stack;
  return error;
}
