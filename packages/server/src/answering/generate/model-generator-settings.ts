import type { AnswerGeneratorConfig, AnswerProvider } from "../../config/answering.js";
import { AnswerConfigError } from "./answer-config-error.js";

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
