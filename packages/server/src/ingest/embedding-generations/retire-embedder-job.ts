import { reembedDocument } from "../reembed-document-job.js";
import { deleteRetiredChunks, listDocumentsOnlyOf } from "./chunk-generation-repository.js";
import { findWorkspaceGenerations, lockWorkspaceGenerations } from "./embedding-generation-repository.js";
import type { ReembeddingContext } from "./reembed-workspace-job.js";

/** Chunks deleted per transaction. */
const RETIRE_BATCH = 500;

type Payload = { workspaceId: string; embedderId: string };

/**
 * Job `retire-embedder`: deletes the workspace's vectors of an embedder that is neither its active
 * nor its pending one any more, a batch per transaction under the workspace's lock (a change that
 * chooses the embedder again meanwhile stops it). A document whose only vectors are of it (written
 * while the switch happened) is re-embedded with the active embedder first, so none is left without.
 */
export async function runRetireEmbedderJob(context: ReembeddingContext, payload: Payload): Promise<void> {
  const inUse = async (db: Parameters<typeof findWorkspaceGenerations>[0]): Promise<boolean> => {
    const { pending } = await findWorkspaceGenerations(db, payload.workspaceId);
    return (await context.embedders.activeId(db, payload.workspaceId)) === payload.embedderId || pending?.embedderId === payload.embedderId;
  };
  if (await inUse(context.db)) return;
  for (const documentId of await listDocumentsOnlyOf(context.db, payload.workspaceId, payload.embedderId)) {
    const done = await reembedDocument(context.db, context.pipeline, documentId);
    if (done) context.onKnowledgeChanged?.(done.agentId);
  }
  let removed = 0;
  for (;;) {
    const deleted = await context.db.transaction(async (tx) => {
      await lockWorkspaceGenerations(tx, payload.workspaceId);
      return (await inUse(tx)) ? 0 : deleteRetiredChunks(tx, payload.workspaceId, payload.embedderId, RETIRE_BATCH);
    });
    removed += deleted;
    if (deleted < RETIRE_BATCH) break;
  }
  context.logger.info({ workspaceId: payload.workspaceId, embedder: payload.embedderId, removed }, "old vectors deleted");
}
