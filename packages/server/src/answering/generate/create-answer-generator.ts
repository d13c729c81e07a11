import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { AnswerConfigError } from "./answer-config-error.js";
import type { AnswerGenerator, AnswerLogger } from "./answer-generator.js";
import { ExtractiveAnswerGenerator } from "./extractive-answer-generator.js";
import { ModelAnswerGenerator } from "./model-answer-generator.js";
import { ModelThreadAnswerGenerator } from "./model-thread/model-thread-answer-generator.js";
import { withFallback } from "./with-fallback.js";

export type AnswerProvider = "extractive" | "openai" | "anthropic";

/** The answering part of the service configuration. */
export interface AnswerGeneratorConfig {
  /** Default in the service config: `extractive`. */
  provider: AnswerProvider;
  /**
   * `openai`: any OpenAI-compatible server (default https://api.openai.com/v1); `anthropic`:
   * default https://api.anthropic.com/v1. A bare origin gets `/v1`; any other path is kept
   * as given (Azure, Groq's `/openai/v1` …).
   */
  baseUrl?: string;
  /** `openai`: sent as a bearer token, optional for local servers; `anthropic`: required. */
  apiKey?: string;
  /** Required for `openai` and `anthropic`, e.g. `gpt-4o-mini`, `llama3.1`, `claude-haiku-4-5`. */
  model?: string;
  /** How long the model may take to its first token (and between chunks) before the extractive answer is used. Default 20. */
  timeoutSeconds?: number;
}

export interface CreateAnswerGeneratorOptions {
  logger?: AnswerLogger;
  /**
   * Talk to the model from a worker thread (see ModelThreadAnswerGenerator), the compiled
   * `model-thread/model-answer-worker.js` or `workerUrl`. Default: in this thread.
   */
  thread?: { workerUrl?: URL };
}

/** What a model generator is built from: checked, and plain data (it crosses to a worker thread). */
export interface ModelGeneratorSettings {
  provider: "openai" | "anthropic";
  modelId: string;
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}

export const DEFAULT_ANSWER_TIMEOUT_SECONDS = 20;

function required(value: string | undefined, what: string, provider: AnswerProvider): string {
  if (value === undefined || value.trim() === "") {
    throw new AnswerConfigError(`The ${provider} answer provider needs ${what}`);
  }
  return value.trim();
}

/** `http://127.0.0.1:11434` → `http://127.0.0.1:11434/v1`; `https://host/openai/v1/` → `https://host/openai/v1`. */
export function apiBaseUrl(baseUrl: string | undefined, fallback: string): string {
  if (baseUrl === undefined || baseUrl.trim() === "") return fallback;
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch (error) {
    throw new AnswerConfigError(`The answer base URL "${baseUrl}" is not a URL`, { cause: error });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AnswerConfigError(`The answer base URL "${baseUrl}" must be http or https`);
  }
  const path = url.pathname.replace(/\/+$/, "");
  return `${url.origin}${path === "" ? "/v1" : path}${url.search}`;
}

/** Checks a model configuration; throws AnswerConfigError when it cannot work. */
export function modelGeneratorSettings(config: AnswerGeneratorConfig & { provider: "openai" | "anthropic" }): ModelGeneratorSettings {
  const timeoutSeconds = config.timeoutSeconds ?? DEFAULT_ANSWER_TIMEOUT_SECONDS;
  if (!(timeoutSeconds > 0)) throw new AnswerConfigError(`The answer timeout must be a positive number of seconds, got ${timeoutSeconds}`);
  const modelId = required(config.model, "a model", config.provider);
  const common = { modelId, timeoutMs: Math.round(timeoutSeconds * 1000) };
  if (config.provider === "openai") {
    return {
      provider: "openai",
      baseUrl: apiBaseUrl(config.baseUrl, "https://api.openai.com/v1"),
      ...(config.apiKey === undefined || config.apiKey === "" ? {} : { apiKey: config.apiKey }),
      ...common,
    };
  }
  // Both are always given: the SDK would otherwise read ANTHROPIC_* from the environment.
  return { provider: "anthropic", baseUrl: apiBaseUrl(config.baseUrl, "https://api.anthropic.com/v1"), apiKey: required(config.apiKey, "an API key", config.provider), ...common };
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
