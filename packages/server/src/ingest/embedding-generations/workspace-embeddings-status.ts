import type { WorkspaceEmbeddings } from "@frontdesk/contracts";
import type { Database } from "../../db/database.js";
import { findWorkspaceGenerations, type GenerationRecord } from "./embedding-generation-repository.js";
import type { WorkspaceEmbedders } from "./workspace-embedders.js";

function settingOf(generation: GenerationRecord) {
  return {
    provider: generation.provider,
    base_url: generation.baseUrl,
    model: generation.model,
    dimensions: generation.dimensions,
    api_key_set: generation.apiKeyCiphertext !== null,
    embedder: generation.embedderId,
  };
}

/** The workspace's embeddings as the console, the API and the CLI show them: the active choice, and the re-embedding under way with its progress. */
export async function workspaceEmbeddingsStatus(db: Database, embedders: WorkspaceEmbedders, workspaceId: string): Promise<WorkspaceEmbeddings> {
  const { active, pending } = await findWorkspaceGenerations(db, workspaceId);
  return {
    active: active
      ? { ...settingOf(active), since: active.activatedAt }
      : { provider: "default", base_url: null, model: null, dimensions: null, api_key_set: false, embedder: embedders.instance.id, since: null },
    reembedding: pending
      ? {
          ...settingOf(pending),
          state: pending.state === "failed" ? "failed" : "running",
          done: Math.min(pending.done, pending.total),
          total: pending.total,
          error: pending.error,
          started_at: pending.createdAt,
          updated_at: pending.updatedAt,
        }
      : null,
  };
}
