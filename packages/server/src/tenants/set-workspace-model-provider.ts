import type { ModelProvider } from "@frontdesk/contracts";
import type { Database, Queryable } from "../db/database.js";
import type { FrontdeskEvents } from "../events/frontdesk-events.js";
import { AppError } from "../http/app-error.js";
import { listWorkspaceAgents } from "./agent-repository.js";
import { apiKeyLast4, type ModelProviderKeys } from "./model-provider-keys.js";
import { findWorkspace } from "./workspace-repository.js";
import {
  deleteWorkspaceModelProvider,
  findWorkspaceModelProvider,
  upsertWorkspaceModelProvider,
  type WorkspaceModelProviderRecord,
} from "./workspace-model-provider-repository.js";

/** What changing a workspace's provider needs: the store, the key seal, the address guard's verdict, the events. */
export interface ModelProviderManagement {
  db: Database;
  keys: ModelProviderKeys;
  /** Why a provider's base URL may not be called (a loopback or private address …), or null. */
  refuseAddress: (url: string) => Promise<string | null>;
  events: FrontdeskEvents;
  now: () => Date;
}

export interface SetModelProviderInput {
  workspaceId: string;
  provider: ModelProvider;
  /** Absent or null: the provider's own address (required for `openai-compatible`). */
  baseUrl?: string | null | undefined;
  model: string;
  /** Absent: the stored key is kept while the provider and address stay the same; null: none. */
  apiKey?: string | null | undefined;
}

const invalid = (field: string, message: string) => new AppError("validation_failed", `The model provider is invalid (${field}: ${message}).`, { [field]: [message] });

/** `https://host/v1/` → `https://host/v1`: one spelling per address, so an unchanged address is recognised. */
export function canonicalBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw invalid("base_url", "not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid("base_url", "only http and https URLs");
  if (url.username !== "" || url.password !== "") throw invalid("base_url", "credentials in the URL are not accepted (give the API key)");
  url.hash = "";
  return url.href.replace(/\/+$/, "");
}

/** The agents a change of the workspace's provider concerns: all but those answering with the extractive answerer. */
async function agentsUsingProvider(tx: Queryable, workspaceId: string): Promise<string[]> {
  return (await listWorkspaceAgents(tx, workspaceId)).filter((agent) => agent.answerModel !== "extractive").map((agent) => agent.id);
}

/**
 * Sets the workspace's answer model provider (admins, console and CLI). A base URL goes through the
 * webhooks' address guard first (422 `model_address_refused`); the key is sealed, and one left
 * out is kept only while the provider and its address stay the same, so a stored key is never
 * sent to an address it was not given for. `agent.answering.changed` is raised in the transaction.
 */
export async function setWorkspaceModelProvider(
  management: ModelProviderManagement,
  input: SetModelProviderInput,
): Promise<{ record: WorkspaceModelProviderRecord; agentIds: string[] }> {
  const baseUrl = input.baseUrl === undefined || input.baseUrl === null ? null : canonicalBaseUrl(input.baseUrl);
  if (input.provider === "openai-compatible" && baseUrl === null) throw invalid("base_url", "an openai-compatible provider needs its base URL");
  if (baseUrl !== null) {
    const refusal = await management.refuseAddress(baseUrl);
    if (refusal !== null) {
      throw new AppError(
        "model_address_refused",
        `The provider's address is refused: ${refusal}. A model server on this host or a private network needs FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS=true.`,
        { base_url: [refusal] },
      );
    }
  }
  return management.db.transaction(async (tx) => {
    if (!(await findWorkspace(tx, input.workspaceId))) throw new AppError("not_found", `No workspace ${input.workspaceId}.`);
    const stored = await findWorkspaceModelProvider(tx, input.workspaceId, true);
    const sameAddress = stored !== null && stored.provider === input.provider && stored.baseUrl === baseUrl;
    let key: { sealed: string | null; last4: string | null } = { sealed: null, last4: null };
    if (typeof input.apiKey === "string") key = { sealed: management.keys.seal(input.apiKey, input.workspaceId), last4: apiKeyLast4(input.apiKey) };
    else if (input.apiKey === undefined && sameAddress) key = { sealed: stored.apiKeySealed, last4: stored.apiKeyLast4 };
    if (key.sealed === null && input.provider !== "openai-compatible") {
      throw invalid("api_key", stored !== null && !sameAddress && stored.apiKeySealed !== null ? "give the API key again: the provider or its address changed" : `the ${input.provider} provider needs an API key`);
    }
    const record = await upsertWorkspaceModelProvider(tx, input.workspaceId, {
      provider: input.provider,
      baseUrl,
      model: input.model,
      apiKeySealed: key.sealed,
      apiKeyLast4: key.last4,
    });
    const agentIds = await agentsUsingProvider(tx, input.workspaceId);
    await management.events.raise(tx, { type: "agent.answering.changed", workspaceId: input.workspaceId, agentIds, changedAt: management.now().toISOString() });
    return { record, agentIds };
  });
}

/** Removes the workspace's provider: its agents answer with the instance's generator again. Null when it had none. */
export async function removeWorkspaceModelProvider(
  management: Pick<ModelProviderManagement, "db" | "events" | "now">,
  workspaceId: string,
): Promise<{ removed: WorkspaceModelProviderRecord | null; agentIds: string[] }> {
  return management.db.transaction(async (tx) => {
    const removed = await deleteWorkspaceModelProvider(tx, workspaceId);
    if (removed === null) return { removed, agentIds: [] };
    const agentIds = await agentsUsingProvider(tx, workspaceId);
    await management.events.raise(tx, { type: "agent.answering.changed", workspaceId, agentIds, changedAt: management.now().toISOString() });
    return { removed, agentIds };
  });
}
