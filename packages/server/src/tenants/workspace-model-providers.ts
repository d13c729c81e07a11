import type { ModelProvider, WorkspaceModelProvider } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import type { ModelProviderKeys } from "./model-provider-keys.js";
import { findWorkspaceModelProvider, type WorkspaceModelProviderRecord } from "./workspace-model-provider-repository.js";

/**
 * Workspaces' model providers as other domains reach them: `workspace_model_providers` is owned
 * by tenants/. The answering path opens a workspace's settings (its key unsealed) through here.
 */
export { findWorkspaceModelProvider, type WorkspaceModelProviderRecord } from "./workspace-model-provider-repository.js";
export { modelProviderKeys, type ModelProviderKeys } from "./model-provider-keys.js";

/** A provider's settings with its key in the clear: only ever held in memory, to call the provider. */
export interface OpenedModelProvider {
  workspaceId: string;
  provider: ModelProvider;
  baseUrl: string | null;
  model: string;
  apiKey: string | null;
  revision: string;
}

/** The workspace's provider with its key opened (null: none; a key sealed under another service secret reads as no key). */
export async function openWorkspaceModelProvider(db: Queryable, keys: ModelProviderKeys, workspaceId: string): Promise<OpenedModelProvider | null> {
  const record = await findWorkspaceModelProvider(db, workspaceId);
  return record === null ? null : openedProvider(record, keys);
}

export function openedProvider(record: WorkspaceModelProviderRecord, keys: ModelProviderKeys): OpenedModelProvider {
  return {
    workspaceId: record.workspaceId,
    provider: record.provider,
    baseUrl: record.baseUrl,
    model: record.model,
    apiKey: record.apiKeySealed === null ? null : keys.open(record.apiKeySealed, record.workspaceId),
    revision: record.revision,
  };
}

/** What the console and the CLI show: never the key. */
export function presentWorkspaceModelProvider(record: WorkspaceModelProviderRecord): WorkspaceModelProvider {
  return {
    provider: record.provider,
    base_url: record.baseUrl,
    model: record.model,
    api_key_set: record.apiKeySealed !== null,
    api_key_last4: record.apiKeyLast4,
    updated_at: record.updatedAt,
  };
}
