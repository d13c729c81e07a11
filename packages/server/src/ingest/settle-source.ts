import type { Queryable } from "../db/database.js";
import type { FrontdeskEvents } from "../events/frontdesk-events.js";
import { setSourceOutcome, type SourceOutcome } from "../sources/sources.js";
import type { DocumentCounts } from "./document-repository.js";

/**
 * Ends a source's sync, in the caller's transaction: its outcome (and config patch, e.g. the page
 * counts) written, and `source.settled` raised with it (its webhook event is queued in the same transaction).
 */
export async function settleSource(
  tx: Queryable,
  events: FrontdeskEvents,
  sourceId: string,
  outcome: SourceOutcome,
  pages: DocumentCounts,
  configPatch: Record<string, unknown> = {},
): Promise<void> {
  const settled = await setSourceOutcome(tx, sourceId, outcome, configPatch);
  if (!settled) return;
  await events.raise(tx, {
    type: "source.settled",
    workspaceId: settled.workspaceId,
    agentId: settled.agentId,
    sourceId: settled.id,
    status: settled.status,
    error: settled.error,
    settledAt: settled.settledAt,
    syncRequestedAt: settled.syncRequestedAt,
    pages: { found: pages.found, indexed: pages.indexed, failed: pages.failed },
  });
}
