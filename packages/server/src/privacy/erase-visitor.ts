import type { ErasureCounts } from "@frontdesk/contracts";
import type { Database } from "../db/database.js";
import { retryOnConcurrencyFailure } from "../db/retry-on-concurrency-failure.js";
import type { DeletionAnnouncer } from "./announce-deleted-conversations.js";
import { waitForAttemptsToStop } from "../webhooks/forget-webhook-events.js";
import { lockVisitorOfWorkspace } from "../conversations/visitor-data.js";
import { deleteVisitorData } from "./delete-visitor-data.js";
import { recordErasure } from "./erasure-repository.js";

export interface EraseVisitorDependencies {
  db: Database;
  /** Told of the deleted conversations after the commit; nobody to tell in a CLI run on the store alone. */
  announce?: DeletionAnnouncer;
}

export interface EraseVisitorRequest {
  workspaceId: string;
  visitorId: string;
  /** The visitor must be this agent's (the widget's session names it). */
  agentId?: string;
  requestedBy: "visitor" | "operator" | "cli";
  /** The operator who asked (console). */
  operatorId?: string | null;
}

export interface Erasure {
  /** The audit record's random id. */
  erasureId: string;
  counts: ErasureCounts;
}

/**
 * The one erasure of a visitor, for the widget's DELETE /me, the console and the CLI: in one
 * transaction, the visitor's row is locked, then their conversations (the lock order every write of
 * a visitor's session follows, conversations/visitor-lock.ts), everything of theirs with the agent is
 * deleted (delete-visitor-data.ts says what), and the audit record is written. A transaction that
 * Postgres ends for a concurrent one's sake (40P01, 40001) is run again. Null when the workspace has
 * no such visitor (never had, or already erased: the two cannot be told apart, by design).
 */
export async function eraseVisitor(dependencies: EraseVisitorDependencies, request: EraseVisitorRequest): Promise<Erasure | null> {
  const outcome = await retryOnConcurrencyFailure(() => dependencies.db.transaction(async (tx) => {
    const visitor = await lockVisitorOfWorkspace(tx, request.workspaceId, request.visitorId, request.agentId);
    if (!visitor) return null;
    // The idempotency keys of their messages (answering/ owns them; they hold the kept answers).
    const { counts, conversations, webhookAttemptsUnderWay } = await deleteVisitorData(tx, visitor);
    const erasureId = await recordErasure(tx, {
      workspaceId: visitor.workspaceId,
      agentId: visitor.agentId,
      scope: "visitor",
      requestedBy: request.requestedBy,
      operatorId: request.operatorId ?? null,
      counts,
    });
    return { erasure: { erasureId, counts }, conversations, webhookAttemptsUnderWay };
  }));
  if (!outcome) return null;
  // Nothing of the visitor leaves once erasure has answered: webhook attempts under way stop first.
  await waitForAttemptsToStop(dependencies.db, outcome.webhookAttemptsUnderWay);
  await dependencies.announce?.(outcome.conversations, "erasure");
  return outcome.erasure;
}
