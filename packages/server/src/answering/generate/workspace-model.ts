import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ModelProvider } from "@frontdesk/contracts";
import { apiBaseUrl } from "./model-generator-settings.js";

/** A workspace's provider settings as a call needs them (the key in the clear, held in memory only). */
export interface WorkspaceModelSettings {
  provider: ModelProvider;
  baseUrl: string | null;
  model: string;
  apiKey: string | null;
}

/** `openai-compatible:llama3.1`: what the answers' `generator` and the logs name. */
export const workspaceModelId = (settings: Pick<WorkspaceModelSettings, "provider" | "model">): string => `${settings.provider}:${settings.model}`;

/**
 * The AI SDK chat model of a workspace's settings, calling through `fetch` (the guarded one of
 * ModelProviderNetwork). The key and address are always given, so the SDK never reads the
 * instance's environment (OPENAI_API_KEY, ANTHROPIC_API_KEY) for a workspace.
 */
export function workspaceLanguageModel(settings: WorkspaceModelSettings, fetch: typeof globalThis.fetch): LanguageModelV3 {
  if (settings.provider === "anthropic") {
    return createAnthropic({ baseURL: apiBaseUrl(settings.baseUrl ?? undefined, "https://api.anthropic.com/v1"), apiKey: settings.apiKey ?? "", fetch }).messages(settings.model);
  }
  return createOpenAICompatible({
    name: settings.provider,
    baseURL: apiBaseUrl(settings.baseUrl ?? undefined, "https://api.openai.com/v1"),
    ...(settings.apiKey === null ? {} : { apiKey: settings.apiKey }),
    fetch,
  }).chatModel(settings.model);
}
