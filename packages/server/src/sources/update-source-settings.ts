import type { UpdateConsoleSourceBody } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import { deleteSourceDocuments, listSourceDocumentUrls } from "../ingest/documents.js";
import type { Services } from "../services.js";
import { sourceNotFound } from "./resync-source.js";
import { findWorkspaceSource, patchSourceConfig, requestResync, type SourceRecord } from "./source-repository.js";
import { updateSourceSchedule } from "./update-source-schedule.js";
import { urlPatternFilter, urlPatternsOf } from "./url-patterns.js";

const patternsOnlyForSitemaps = (field: "include_patterns" | "exclude_patterns") =>
  new AppError("validation_failed", "Only a sitemap source takes URL patterns.", { [field]: ["only a sitemap source takes URL patterns"] });

/**
 * Applies new URL patterns to a sitemap source: in one transaction, the patterns are stored, the
 * pages they now leave out are deleted with their chunks (the agent's knowledge revision moves
 * with them: answers stop citing them at once), and a re-sync is queued so that pages they now
 * let in are found. Returns how many pages left.
 */
async function applyUrlPatterns(services: Services, source: SourceRecord, body: UpdateConsoleSourceBody): Promise<number> {
  const patch: Record<string, unknown> = {};
  if (body.include_patterns !== undefined) patch.include_patterns = body.include_patterns;
  if (body.exclude_patterns !== undefined) patch.exclude_patterns = body.exclude_patterns;
  const crawled = urlPatternFilter(urlPatternsOf({ ...source.config, ...patch }));
  const removed = await services.db.transaction(async (tx) => {
    await patchSourceConfig(tx, source.id, patch);
    const leaving = (await listSourceDocumentUrls(tx, source.id)).filter((document) => !crawled(document.url)).map((document) => document.id);
    const count = await deleteSourceDocuments(tx, source.id, leaving);
    await requestResync(tx, source.id);
    await services.jobs.send("index-source", { sourceId: source.id }, tx);
    return count;
  });
  if (removed > 0) services.lexical.statistics.invalidate(source.agentId);
  return removed;
}

/** PATCH a source on the console: its re-sync schedule and, for a sitemap, its URL patterns. */
export async function updateSourceSettings(services: Services, workspaceId: string, sourceId: string, body: UpdateConsoleSourceBody): Promise<SourceRecord> {
  let source = await findWorkspaceSource(services.db, workspaceId, sourceId);
  if (!source) throw sourceNotFound();
  const patternsGiven = body.include_patterns !== undefined || body.exclude_patterns !== undefined;
  if (patternsGiven && source.kind !== "sitemap") throw patternsOnlyForSitemaps(body.include_patterns !== undefined ? "include_patterns" : "exclude_patterns");
  if (body.schedule !== undefined) source = await updateSourceSchedule(services, workspaceId, sourceId, body.schedule);
  if (patternsGiven) {
    const current = urlPatternsOf(source.config);
    const changed =
      (body.include_patterns !== undefined && JSON.stringify(body.include_patterns) !== JSON.stringify(current.include)) ||
      (body.exclude_patterns !== undefined && JSON.stringify(body.exclude_patterns) !== JSON.stringify(current.exclude));
    if (changed) await applyUrlPatterns(services, source, body);
  }
  const updated = await findWorkspaceSource(services.db, workspaceId, sourceId);
  if (!updated) throw sourceNotFound();
  return updated;
}
