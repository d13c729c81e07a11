import type { Database } from "../../db/database.js";
import { newId } from "../../db/ids.js";
import type { EmbedderChoice } from "../../embeddings/embedder-registry.js";
import type { Embedder } from "../../embeddings/embedder.js";
import { EmbeddingError } from "../../embeddings/embedding-error.js";
import { AppError } from "../../http/app-error.js";
import type { JobQueue } from "../../jobs/job-queue.js";
import { countWorkspaceChunks } from "./chunk-generation-repository.js";
import {
  deleteGeneration,
  findWorkspaceGenerations,
  insertGeneration,
  lockWorkspaceGenerations,
  restartGeneration,
  type EmbeddingsProvider,
  type WorkspaceGenerations,
} from "./embedding-generation-repository.js";
import type { WorkspaceEmbedders } from "./workspace-embedders.js";

/** What changing a workspace's embedder needs. */
export interface EmbeddingsManagement {
  db: Database;
  jobs: JobQueue;
  embedders: WorkspaceEmbedders;
}

/** A workspace's new choice. `apiKey` omitted: the current setting's key is kept when the base URL is the same. */
export interface EmbeddingsChange {
  provider: EmbeddingsProvider;
  baseUrl?: string | undefined;
  model?: string | undefined;
  dimensions?: number | undefined;
  apiKey?: string | undefined;
}

const invalid = (field: string, problem: string) => new AppError("validation_failed", `The embeddings setting is refused: ${problem}.`, { [field]: [problem] });

/** The key of the current setting for the same server, kept when a change gives none. */
function keptKey(management: EmbeddingsManagement, generations: WorkspaceGenerations, baseUrl: string): string | null {
  const current = generations.pending ?? generations.active;
  if (current?.provider !== "openai-compatible" || current.baseUrl !== baseUrl || current.apiKeyCiphertext === null) return null;
  return management.embedders.keys.open(current.apiKeyCiphertext, current.id);
}

async function choiceOf(management: EmbeddingsManagement, workspaceId: string, change: EmbeddingsChange): Promise<EmbedderChoice> {
  if (change.provider !== "openai-compatible") return { provider: change.provider };
  if (!change.baseUrl) throw invalid("base_url", "an OpenAI-compatible server needs a base URL");
  if (!change.model) throw invalid("model", "an OpenAI-compatible server needs a model");
  const refusal = await management.embedders.registry.urlRefusal(change.baseUrl);
  if (refusal !== null) throw invalid("base_url", refusal);
  const baseUrl = new URL(change.baseUrl).href;
  const apiKey = change.apiKey ?? keptKey(management, await findWorkspaceGenerations(management.db, workspaceId), baseUrl);
  return { provider: "openai-compatible", baseUrl, model: change.model, dimensions: change.dimensions ?? null, apiKey: apiKey || null };
}

async function embedderOf(management: EmbeddingsManagement, choice: EmbedderChoice): Promise<Embedder> {
  try {
    return await management.embedders.registry.embedderFor(choice);
  } catch (error) {
    if (!(error instanceof EmbeddingError)) throw error;
    if (error.failure === "model_unavailable") throw invalid("provider", `the local model is not available on this instance (${error.message})`);
    throw invalid(choice.provider === "openai-compatible" && choice.dimensions === null ? "dimensions" : "provider", error.message);
  }
}

/**
 * Changes the workspace's embedder. When its vectors differ from the active ones (another embedder
 * id), a re-embedding starts in the background (its first job enqueued in this transaction) while
 * answers keep using the active vectors; a re-embedding under way is superseded (its vectors are
 * deleted by a `retire-embedder` job). When they are the same, the setting changes at once.
 */
export async function changeWorkspaceEmbeddings(management: EmbeddingsManagement, workspaceId: string, change: EmbeddingsChange): Promise<void> {
  const choice = await choiceOf(management, workspaceId, change);
  const embedder = await embedderOf(management, choice);
  const id = newId("emb");
  const apiKeyCiphertext = choice.provider === "openai-compatible" && choice.apiKey !== null ? management.embedders.keys.seal(choice.apiKey, id) : null;
  await management.db.transaction(async (tx) => {
    await lockWorkspaceGenerations(tx, workspaceId);
    const { active, pending } = await findWorkspaceGenerations(tx, workspaceId);
    const activeId = await management.embedders.activeId(tx, workspaceId);
    if (pending) {
      await deleteGeneration(tx, workspaceId, pending.id);
      if (pending.embedderId !== activeId) await management.jobs.send("retire-embedder", { workspaceId, embedderId: pending.embedderId }, tx);
    }
    const record = {
      id,
      workspaceId,
      provider: choice.provider,
      baseUrl: choice.provider === "openai-compatible" ? choice.baseUrl : null,
      model: choice.provider === "openai-compatible" ? choice.model : null,
      dimensions: choice.provider === "openai-compatible" ? embedder.dimensions : null,
      apiKeyCiphertext,
      embedderId: embedder.id,
    };
    if (embedder.id === activeId) {
      // The same vectors: nothing to re-embed; the new setting (a new key, another server of the same model) applies now.
      if (active) await deleteGeneration(tx, workspaceId, active.id);
      if (choice.provider !== "default") await insertGeneration(tx, { ...record, state: "active", total: 0 });
      return;
    }
    await insertGeneration(tx, { ...record, state: "reembedding", total: await countWorkspaceChunks(tx, workspaceId, activeId) });
    await management.jobs.send("reembed-workspace", { workspaceId, generationId: id }, tx);
  });
}

/** Starts a failed re-embedding again where it stopped; with none failed (one running, or none) nothing changes. */
export async function retryWorkspaceReembedding(management: EmbeddingsManagement, workspaceId: string): Promise<void> {
  await management.db.transaction(async (tx) => {
    await lockWorkspaceGenerations(tx, workspaceId);
    const { pending } = await findWorkspaceGenerations(tx, workspaceId);
    if (pending?.state !== "failed") return;
    await restartGeneration(tx, workspaceId, pending.id);
    await management.jobs.send("reembed-workspace", { workspaceId, generationId: pending.id }, tx);
  });
}
