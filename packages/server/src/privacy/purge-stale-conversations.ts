import type { ErasureCounts } from "@frontdesk/contracts";
import type { Database } from "../db/database.js";
import type { DeletionAnnouncer } from "./announce-deleted-conversations.js";
import { listRetentionWorkspaces } from "../tenants/workspaces.js";
import { addCounts, NO_ERASURE } from "./erasure-counts.js";
import { recordErasure } from "./erasure-repository.js";
import { purgeStaleConversationBatch } from "./purge-stale-conversation-batch.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Conversations deleted per transaction: short transactions, bounded locks. */
export const RETENTION_BATCH_SIZE = 200;

export interface PurgeOptions {
  /** FRONTDESK_RETENTION_DAYS (null: off unless a workspace sets a period). */
  days: number | null;
  /** FRONTDESK_RETENTION_INCLUDE_LEADS. */
  includeLeads: boolean;
  now: Date;
  batchSize?: number;
}

/** The period a workspace keeps conversations for: its override (0: forever) or the deployment's; null: forever. */
export function effectiveRetentionDays(workspaceDays: number | null, deploymentDays: number | null): number | null {
  if (workspaceDays === null) return deploymentDays;
  return workspaceDays === 0 ? null : workspaceDays;
}

/**
 * The retention job: in each workspace with a period, the conversations with no activity for
 * longer are deleted with what they hold, a batch per transaction, oldest first, until none is
 * left; each batch writes its audit record (counts only) in its own transaction.
 */
export async function purgeStaleConversations(
  dependencies: { db: Database; announce?: DeletionAnnouncer },
  options: PurgeOptions,
): Promise<{ workspaces: number; counts: ErasureCounts }> {
  const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
  let total = NO_ERASURE;
  let workspaces = 0;
  for (const workspace of await listRetentionWorkspaces(dependencies.db, options.days)) {
    const days = effectiveRetentionDays(workspace.retentionDays, options.days);
    if (days === null) continue;
    const before = new Date(options.now.getTime() - days * DAY_MS);
    let counts = NO_ERASURE;
    for (;;) {
      const batch = await dependencies.db.transaction(async (tx) => {
        const purged = await purgeStaleConversationBatch(tx, { workspaceId: workspace.id, before, limit: batchSize, includeLeads: options.includeLeads });
        if (purged.conversations.length > 0) {
          await recordErasure(tx, { workspaceId: workspace.id, agentId: null, scope: "retention", requestedBy: "retention", operatorId: null, counts: purged.counts });
        }
        return purged;
      });
      if (batch.conversations.length === 0) break;
      counts = addCounts(counts, batch.counts);
      await dependencies.announce?.(batch.conversations, "retention");
      if (batch.conversations.length < batchSize) break;
    }
    if (counts.conversations === 0) continue;
    workspaces += 1;
    total = addCounts(total, counts);
  }
  return { workspaces, counts: total };
}
