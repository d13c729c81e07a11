import type { ConsoleSource, ConsoleSourceDetail } from "@frontdesk/contracts";
import { countDocumentsBySource, listFailedPages, type DocumentCounts } from "../../ingest/documents.js";
import type { Services } from "../../services.js";
import { sourceNotFound } from "../../sources/resync-source.js";
import { findWorkspaceSource, listAgentSources, listWorkspaceSources, type SourceRecord } from "../../sources/sources.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { requireWorkspaceAgent } from "../agents/change-console-agent.js";

/** The Knowledge screen lists at most this many of a workspace's sources (newest first) when no agent is named. */
export const WORKSPACE_SOURCES_LIMIT = 500;
const FAILED_PAGES_LIMIT = 50;
const NO_PAGES: DocumentCounts = { found: 0, pending: 0, indexed: 0, failed: 0 };

const stringOrNull = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/** A source with its live progress, from its pages' states (not the counts last written into its config). */
export function presentConsoleSource(source: SourceRecord, counts: DocumentCounts = NO_PAGES): ConsoleSource {
  return {
    id: source.id,
    agent_id: source.agentId,
    kind: source.kind,
    status: source.status,
    syncing: source.status === "pending" || counts.pending > 0,
    url: source.targetUrl ?? stringOrNull(source.config.source_url) ?? stringOrNull(source.config.file_url),
    // A file is named by its owner's title, else its file name.
    title: stringOrNull(source.config.title) ?? stringOrNull(source.config.filename),
    progress: { pages_found: counts.found, pages_indexed: counts.indexed, pages_failed: counts.failed, pages_pending: counts.pending },
    error: source.error,
    config: source.config,
    last_synced_at: source.lastSyncedAt,
    schedule: source.schedule,
    next_sync_at: source.nextSyncAt,
    created_at: source.createdAt,
  };
}

/** The sources of one agent (oldest first) or of the whole workspace (newest first), with their progress. */
export async function listConsoleSources(services: Services, operator: SignedInOperator, agentId: string | undefined): Promise<ConsoleSource[]> {
  const sources =
    agentId === undefined
      ? await listWorkspaceSources(services.db, operator.workspaceId, WORKSPACE_SOURCES_LIMIT)
      : await listAgentSources(services.db, (await requireWorkspaceAgent(services, operator, agentId)).id);
  const counts = await countDocumentsBySource(services.db, sources.map((source) => source.id));
  return sources.map((source) => presentConsoleSource(source, counts.get(source.id)));
}

/** One source with its progress and the pages that failed, with why. */
export async function showConsoleSource(services: Services, operator: SignedInOperator, sourceId: string): Promise<ConsoleSourceDetail> {
  const source = await findWorkspaceSource(services.db, operator.workspaceId, sourceId);
  if (!source) throw sourceNotFound();
  return withDetail(services, source);
}

export async function withDetail(services: Services, source: SourceRecord): Promise<ConsoleSourceDetail> {
  const [counts, failed] = await Promise.all([countDocumentsBySource(services.db, [source.id]), listFailedPages(services.db, source.id, FAILED_PAGES_LIMIT)]);
  return {
    ...presentConsoleSource(source, counts.get(source.id)),
    failed_pages: failed.map((page) => ({ url: page.url, error: page.error, indexed_before: page.indexedBefore })),
  };
}
