import type { ModelProviderSettingsResponse, PutModelProviderBody, TestModelProviderBody, TestModelProviderResponse } from "@frontdesk/contracts";
import { testModelProvider } from "../../answering/generate/test-model-provider.js";
import type { WorkspaceModelSettings } from "../../answering/generate/workspace-model.js";
import type { Services } from "../../services.js";
import { canonicalBaseUrl, removeWorkspaceModelProvider, setWorkspaceModelProvider, type ModelProviderManagement } from "../../tenants/set-workspace-model-provider.js";
import {
  findWorkspaceModelProvider,
  openedProvider,
  presentWorkspaceModelProvider,
  type WorkspaceModelProviderRecord,
} from "../../tenants/workspace-model-providers.js";
import { AppError } from "../../http/app-error.js";
import { DEFAULT_ANSWER_TIMEOUT_SECONDS } from "../../answering/generate/model-generator-settings.js";

type Settings = ModelProviderSettingsResponse["data"];

/** What the console sees: the workspace's provider (never its key) and the instance's default. */
export function presentModelProviderSettings(services: Services, record: WorkspaceModelProviderRecord | null): Settings {
  const { answers } = services.config;
  return {
    workspace: record === null ? null : presentWorkspaceModelProvider(record),
    instance_default: { provider: answers.provider, model: answers.provider === "extractive" ? null : (answers.model ?? null) },
  };
}

/** The console's and the CLI's way to change a provider: the store, the seal, the guard, the events. */
export function modelProviderManagement(services: Services): ModelProviderManagement {
  return {
    db: services.db,
    keys: services.answerModels.keys,
    refuseAddress: (url) => services.answerModels.network.refusal(url),
    events: services.events,
    now: services.now,
  };
}

/** This process's cached sessions of the agents drop their agent, so the next question reads the new revision. */
function forgetAgents(services: Services, agentIds: readonly string[]): void {
  for (const agentId of agentIds) services.sessionCache.forgetAgent(agentId);
}

export async function putModelProvider(services: Services, workspaceId: string, body: PutModelProviderBody): Promise<Settings> {
  const { record, agentIds } = await setWorkspaceModelProvider(modelProviderManagement(services), {
    workspaceId,
    provider: body.provider,
    baseUrl: body.base_url,
    model: body.model,
    apiKey: body.api_key,
  });
  forgetAgents(services, agentIds);
  return presentModelProviderSettings(services, record);
}

export async function deleteModelProvider(services: Services, workspaceId: string): Promise<void> {
  const { agentIds } = await removeWorkspaceModelProvider(services, workspaceId);
  forgetAgents(services, agentIds);
}

/**
 * The settings a test calls: the stored ones (empty body), or the body's; a key left out is the
 * stored one only for the stored provider and base URL, as PUT keeps it. An unsaved base URL is
 * checked by the address guard first.
 */
async function settingsToTest(services: Services, workspaceId: string, body: TestModelProviderBody): Promise<WorkspaceModelSettings> {
  const stored = await findWorkspaceModelProvider(services.db, workspaceId);
  const opened = stored === null ? null : openedProvider(stored, services.answerModels.keys);
  if (body.provider === undefined || body.model === undefined) {
    if (opened === null) throw new AppError("validation_failed", "The workspace has no model provider: give the settings to test.", { provider: ["give the settings to test"] });
    return opened;
  }
  const baseUrl = body.base_url === undefined || body.base_url === null ? null : canonicalBaseUrl(body.base_url);
  if (baseUrl !== null) {
    const refusal = await services.answerModels.network.refusal(baseUrl);
    if (refusal !== null) {
      throw new AppError("model_address_refused", `The provider's address is refused: ${refusal}.`, { base_url: [refusal] });
    }
  }
  const sameAddress = opened !== null && opened.provider === body.provider && opened.baseUrl === baseUrl;
  const apiKey = body.api_key === undefined ? (sameAddress ? opened.apiKey : null) : body.api_key;
  return { provider: body.provider, baseUrl, model: body.model, apiKey };
}

export async function testConsoleModelProvider(services: Services, workspaceId: string, body: TestModelProviderBody): Promise<TestModelProviderResponse["data"]> {
  const settings = await settingsToTest(services, workspaceId, body);
  const timeoutMs = Math.round((services.config.answers.timeoutSeconds ?? DEFAULT_ANSWER_TIMEOUT_SECONDS) * 1000);
  return testModelProvider(services.answerModels.network, settings, timeoutMs);
}
