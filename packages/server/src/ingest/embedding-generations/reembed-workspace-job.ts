import type { Logger } from "pino";
import type { Database } from "../../db/database.js";
import type { Embedder } from "../../embeddings/embedder.js";
import { EmbeddingError } from "../../embeddings/embedding-error.js";
import type { JobQueue, JobAttempt } from "../../jobs/job-queue.js";
import { chunkEmbeddingText } from "../chunk/chunk-embedding-text.js";
import type { IngestPipeline } from "../ingest-pipeline.js";
import { embedMeasured } from "../measured-embedding.js";
import { bumpWorkspaceKnowledge, insertChunkCopies, listChunksToCopy } from "./chunk-generation-repository.js";
import {
  activateGeneration,
  addGenerationProgress,
  findGeneration,
  lockWorkspaceGenerations,
  markGenerationFailed,
  type GenerationRecord,
} from "./embedding-generation-repository.js";
import type { WorkspaceEmbedders } from "./workspace-embedders.js";

/** Chunks embedded per job: one request to a remote server, a second or two of local work. */
export const REEMBED_BATCH = 64;

/** What the re-embedding jobs work with in one process. */
export interface ReembeddingContext {
  db: Database;
  jobs: JobQueue;
  pipeline: IngestPipeline;
  embedders: WorkspaceEmbedders;
  logger: Logger;
  /** An agent's knowledge changed (the workspace switched): this process's caches of it are stale. */
  onKnowledgeChanged?: (agentId: string) => void;
  /** Chunks per job; REEMBED_BATCH by default. */
  batchSize?: number;
}

type Payload = { workspaceId: string; generationId: string };

/** Whether the generation is still the workspace's pending one, read under the workspace's lock. */
async function stillPending(context: ReembeddingContext, tx: Parameters<Parameters<Database["transaction"]>[0]>[0], payload: Payload): Promise<boolean> {
  await lockWorkspaceGenerations(tx, payload.workspaceId);
  return (await findGeneration(tx, payload.workspaceId, payload.generationId))?.state === "reembedding";
}

async function failed(context: ReembeddingContext, generation: GenerationRecord, error: EmbeddingError): Promise<void> {
  await markGenerationFailed(context.db, generation.workspaceId, generation.id, { code: error.failure, message: error.message });
  context.logger.warn({ workspaceId: generation.workspaceId, generationId: generation.id, err: error }, "re-embedding failed; answers keep the old vectors");
}

/**
 * Job `reembed-workspace`: embeds the next batch of the workspace's chunks that have no vector of
 * the generation's embedder, writes them beside the old ones and enqueues the next batch in the same
 * transaction (a superseded or failed generation's job does nothing). With nothing left, switches.
 * A provider's failure marks the generation failed (answers keep the old vectors; a retry resumes).
 */
export async function runReembedWorkspaceJob(context: ReembeddingContext, payload: Payload, attempt: JobAttempt): Promise<void> {
  const generation = await findGeneration(context.db, payload.workspaceId, payload.generationId);
  if (generation?.state !== "reembedding") return;
  let embedder: Embedder;
  let vectors: Float32Array[];
  let batch: Awaited<ReturnType<typeof listChunksToCopy>>;
  try {
    embedder = await context.embedders.embedderOf(generation);
    batch = await listChunksToCopy(context.db, payload.workspaceId, embedder.id, context.batchSize ?? REEMBED_BATCH);
    if (batch.length === 0) return await switchWhenComplete(context, payload, embedder);
    vectors = await embedMeasured(context.pipeline, embedder, batch.map((chunk) => chunkEmbeddingText({ title: chunk.title, heading: chunk.heading, text: chunk.content })));
  } catch (error) {
    if (error instanceof EmbeddingError) return failed(context, generation, error);
    if (attempt.isLastAttempt) await failed(context, generation, new EmbeddingError("worker_failed", "The re-embedding stopped on an internal error; retry it"));
    throw error;
  }
  await context.db.transaction(async (tx) => {
    if (!(await stillPending(context, tx, payload))) return;
    const copied = await insertChunkCopies(tx, { embedderId: embedder.id, dimensions: embedder.dimensions }, batch.map((chunk, i) => ({ id: chunk.id, embedding: vectors[i]! })));
    await addGenerationProgress(tx, payload.workspaceId, payload.generationId, copied);
    await context.jobs.send("reembed-workspace", payload, tx);
  });
}

/**
 * Every chunk of the workspace has a vector of the new embedder: in one transaction (under the
 * workspace's lock, so no batch or change interleaves), checked once more, the generation becomes
 * the active one and the old embedder's vectors are queued for deletion. A document written with
 * the old embedder in the meantime is listed again and keeps the re-embedding going.
 */
async function switchWhenComplete(context: ReembeddingContext, payload: Payload, embedder: Embedder): Promise<void> {
  const switched = await context.db.transaction(async (tx) => {
    if (!(await stillPending(context, tx, payload))) return null;
    if ((await listChunksToCopy(tx, payload.workspaceId, embedder.id, 1)).length > 0) {
      await context.jobs.send("reembed-workspace", payload, tx);
      return null;
    }
    const previous = await context.embedders.activeId(tx, payload.workspaceId);
    await activateGeneration(tx, payload.workspaceId, payload.generationId);
    const agents = await bumpWorkspaceKnowledge(tx, payload.workspaceId);
    if (previous !== embedder.id) await context.jobs.send("retire-embedder", { workspaceId: payload.workspaceId, embedderId: previous }, tx);
    return { previous, agents };
  });
  if (switched === null) return;
  for (const agentId of switched.agents) context.onKnowledgeChanged?.(agentId);
  context.logger.info({ workspaceId: payload.workspaceId, embedder: embedder.id, previous: switched.previous }, "workspace switched to its new vectors");
}
