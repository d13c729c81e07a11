import { countRemoved } from "../db/count-removed.js";
import type { Queryable } from "../db/database.js";
import { textArray } from "../db/text-array.js";
import { lockedVisitorOf } from "../conversations/conversations.js";

export interface EventInput {
  workspaceId: string;
  agentId: string;
  /** The event's visitor is the conversation's. */
  conversationId: string;
  event: string;
  ruleId: string | null;
  metadata: Record<string, unknown>;
}

/**
 * Stores one event of the visitor's, after locking the visitor's row (visitor-lock.ts: the event's
 * foreign keys would otherwise lock the conversation, then the visitor, against erasure's order).
 * Null when the visitor or the conversation is gone: nothing is stored.
 */
export async function insertEvent(db: Queryable, event: EventInput): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `WITH session_visitor AS (${lockedVisitorOf("$3")})
     INSERT INTO events (workspace_id, agent_id, conversation_id, visitor_id, event, rule_id, metadata)
     SELECT $1::text, $2::text, $3::text, session_visitor.id, $4::text, $5::text, $6::jsonb FROM session_visitor
     RETURNING id::text AS id`,
    [event.workspaceId, event.agentId, event.conversationId, event.event, event.ruleId, JSON.stringify(event.metadata)],
  );
  return rows[0]?.id ?? null;
}

/** Deletes the workspace's events of these conversations (events_conversation_idx), for erasure and retention; how many. */
export async function deleteEventsOfConversations(tx: Queryable, workspaceId: string, conversationIds: readonly string[]): Promise<number> {
  return countRemoved(tx, `DELETE FROM events e WHERE e.workspace_id = $1 AND e.conversation_id = ANY($2::text[])`, [workspaceId, textArray(conversationIds)]);
}

/** Deletes the workspace's events of these visitors (events_visitor_idx), for erasure and retention; how many. */
export async function deleteEventsOfVisitors(tx: Queryable, workspaceId: string, visitorIds: readonly string[]): Promise<number> {
  return countRemoved(tx, `DELETE FROM events e WHERE e.workspace_id = $1 AND e.visitor_id = ANY($2::text[])`, [workspaceId, textArray(visitorIds)]);
}

/** A widget event as the visitor's export shows it. */
export interface ExportedEventRow {
  conversation_id: string | null;
  event: string;
  rule_id: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
}

/**
 * The agent's events of the visitor or of these conversations of theirs, oldest first, for the
 * visitor's export (events_visitor_idx, events_conversation_idx).
 */
export async function listEventsToExport(
  tx: Queryable,
  scope: { workspaceId: string; agentId: string; visitorId: string; conversationIds: readonly string[] },
): Promise<ExportedEventRow[]> {
  const { rows } = await tx.query<ExportedEventRow>(
    `SELECT e.conversation_id, e.event, e.rule_id, e.metadata, e.created_at FROM events e
     WHERE e.workspace_id = $1 AND e.agent_id = $2
       AND e.id IN (SELECT v.id FROM events v WHERE v.visitor_id = $3 UNION SELECT c.id FROM events c WHERE c.conversation_id = ANY($4::text[]))
     ORDER BY e.created_at, e.id`,
    [scope.workspaceId, scope.agentId, scope.visitorId, textArray(scope.conversationIds)],
  );
  return rows;
}
