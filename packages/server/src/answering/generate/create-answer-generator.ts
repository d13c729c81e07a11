import type { AnswerGeneratorConfig } from "../../config/answering.js";
import type { AnswerGenerator, AnswerLogger } from "./answer-generator.js";
import { ExtractiveAnswerGenerator } from "./extractive-answer-generator.js";
import { createModelAnswerGenerator } from "./model-answer-generator.js";
import { modelGeneratorSettings } from "./model-generator-settings.js";
import { ModelThreadAnswerGenerator } from "./model-thread/model-thread-answer-generator.js";
import { withFallback } from "./with-fallback.js";

export interface CreateAnswerGeneratorOptions {
  logger?: AnswerLogger;
  /**
   * Talk to the model from a worker thread (see ModelThreadAnswerGenerator), the compiled
   * `model-thread/model-answer-worker.js` or `workerUrl`. Default: in this thread.
   */
  thread?: { workerUrl?: URL };
}

/**
 * Builds the configured answer generator. `extractive` needs nothing. `openai` and `anthropic`
 * stream from a chat model and fall back to the extractive answer (flagged low confidence) when
 * the model fails or is silent past `timeoutSeconds` before its first token. A configuration
 * that cannot work throws AnswerConfigError at once, never at the first question.
 */
export function createAnswerGenerator(config: AnswerGeneratorConfig, options: CreateAnswerGeneratorOptions = {}): AnswerGenerator {
  const extractive = new ExtractiveAnswerGenerator();
  if (config.provider === "extractive") return extractive;
  const settings = modelGeneratorSettings({ ...config, provider: config.provider });
  const primary = options.thread
    ? new ModelThreadAnswerGenerator({
        settings,
        workerUrl: options.thread.workerUrl ?? new URL("./model-thread/model-answer-worker.js", import.meta.url),
        logger: options.logger,
      })
    : createModelAnswerGenerator(settings, options.logger);
  return withFallback(primary, extractive, { firstTokenTimeoutMs: settings.timeoutMs, logger: options.logger });
}
