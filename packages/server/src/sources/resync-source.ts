import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import { findWorkspaceSource, requestResync, type SourceRecord } from "./source-repository.js";

export const sourceNotFound = () => new AppError("source_not_found", "No source with this id in your workspace.");

/**
 * Syncs a source again: a URL or sitemap is fetched anew, a text re-indexed (with the current
 * embedder). A failed source goes back to `pending`; an indexed one keeps answering until the sync
 * ends. The job is enqueued in the transaction that records the request.
 */
export async function resyncSource(services: Services, workspaceId: string, sourceId: string): Promise<SourceRecord> {
  return services.db.transaction(async (tx) => {
    const source = await findWorkspaceSource(tx, workspaceId, sourceId);
    if (!source) throw sourceNotFound();
    const resynced = await requestResync(tx, source.id);
    await services.jobs.send("index-source", { sourceId: source.id }, tx);
    return resynced;
  });
}
