import type { ConsoleMessage, ConversationStatus, SystemMessageCode, VisitorIdentity } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { iso, isoOrNull } from "../db/timestamps.js";
import { visitorIdentityOf, type VisitorIdentityColumns } from "./visitor-identity-repository.js";

/** One conversation of the workspace as the console shows it, without its messages and lead. */
export interface ConsoleConversation {
  id: string;
  agentId: string;
  visitorId: string;
  anonId: string;
  /** The site's verified user (migration 0047); null: an anonymous visitor. */
  identity: VisitorIdentity | null;
  status: ConversationStatus;
  assignee: { id: string; name: string } | null;
  humanRequestedAt: string | null;
  humanRequestReason: string | null;
  /** Snoozed until then (null: until the visitor writes); null when not snoozed. */
  snooze: { until: string | null } | null;
  seq: number;
  updatedSeq: number | null;
  firstPageUrl: string | null;
  lastPageUrl: string | null;
  userAgent: string | null;
  satisfaction: { rating: "good" | "bad"; comment: string | null; rated_at: string } | null;
  coupon: { code: string; applied_at: string } | null;
  lastReadSeq: number | null;
  unreadCount: number;
  createdAt: string;
  lastActivityAt: string;
}

interface ConversationRow extends VisitorIdentityColumns {
  id: string;
  agent_id: string;
  visitor_id: string;
  anon_id: string;
  status: ConversationStatus;
  assignee_id: string | null;
  assignee_name: string | null;
  human_requested_at: Date | null;
  human_request_reason: string | null;
  snooze_id: string | null;
  snoozed_until: Date | null;
  event_seq: number;
  updated_seq: number | null;
  page_url: string | null;
  last_page_url: string | null;
  user_agent: string | null;
  satisfaction_rating: "good" | "bad" | null;
  satisfaction_comment: string | null;
  satisfaction_at: Date | null;
  coupon_code: string | null;
  coupon_applied_at: Date | null;
  last_read_seq: number | null;
  unread_count: number | string;
  created_at: Date;
  last_activity_at: Date;
}

/** Visitor messages above the operator's read marker (all of them without one). */
const UNREAD_COUNT = `(SELECT count(*) FROM messages unread
   WHERE unread.conversation_id = c.id AND unread.role = 'visitor'
     AND (reads.last_read_seq IS NULL OR unread.conversation_seq > reads.last_read_seq))`;

/** The conversation when it belongs to the workspace (null otherwise: another workspace's id reads as unknown). */
export async function findConsoleConversation(
  db: Queryable,
  workspaceId: string,
  operatorId: string,
  conversationId: string,
): Promise<ConsoleConversation | null> {
  const { rows } = await db.query<ConversationRow>(
    `SELECT c.id, c.agent_id, c.visitor_id, v.anon_id, v.user_id, v.user_email, v.user_name, v.user_verified_at, c.status, assignee.id AS assignee_id, assignee.name AS assignee_name,
       c.human_requested_at, c.human_request_reason, c.snooze_id, c.snoozed_until, c.event_seq, c.updated_seq, c.page_url, c.last_page_url, c.user_agent,
       c.satisfaction_rating, c.satisfaction_comment, c.satisfaction_at, c.coupon_code, c.coupon_applied_at,
       reads.last_read_seq, ${UNREAD_COUNT} AS unread_count, c.created_at, c.last_activity_at
     FROM conversations c
     JOIN visitors v ON v.id = c.visitor_id
     LEFT JOIN operators assignee ON assignee.id = c.assignee_operator_id
     LEFT JOIN conversation_reads reads ON reads.conversation_id = c.id AND reads.operator_id = $2
     WHERE c.id = $3 AND c.workspace_id = $1`,
    [workspaceId, operatorId, conversationId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    agentId: row.agent_id,
    visitorId: row.visitor_id,
    anonId: row.anon_id,
    identity: visitorIdentityOf(row),
    status: row.status,
    assignee: row.assignee_id && row.assignee_name !== null ? { id: row.assignee_id, name: row.assignee_name } : null,
    humanRequestedAt: isoOrNull(row.human_requested_at),
    humanRequestReason: row.human_request_reason,
    snooze: row.snooze_id === null ? null : { until: isoOrNull(row.snoozed_until) },
    seq: row.event_seq,
    updatedSeq: row.updated_seq,
    firstPageUrl: row.page_url,
    lastPageUrl: row.last_page_url ?? row.page_url,
    userAgent: row.user_agent,
    satisfaction:
      row.satisfaction_rating && row.satisfaction_at
        ? { rating: row.satisfaction_rating, comment: row.satisfaction_comment, rated_at: iso(row.satisfaction_at) }
        : null,
    coupon: row.coupon_code && row.coupon_applied_at ? { code: row.coupon_code, applied_at: iso(row.coupon_applied_at) } : null,
    lastReadSeq: row.last_read_seq,
    unreadCount: Number(row.unread_count),
    createdAt: iso(row.created_at),
    lastActivityAt: iso(row.last_activity_at),
  };
}

interface MessageRow {
  id: string;
  conversation_seq: number | null;
  role: ConsoleMessage["role"];
  content: string;
  system_code: SystemMessageCode | null;
  citations: ConsoleMessage["citations"];
  low_confidence: boolean;
  operator_id: string | null;
  author_name: string | null;
  created_at: Date;
  curated_answer_id: string | null;
}

const MESSAGE_COLUMNS = `id, conversation_seq, role, content, system_code, citations, low_confidence, operator_id, author_name, created_at, curated_answer_id`;

const toConsoleMessage = (row: MessageRow): ConsoleMessage => ({
  id: row.id,
  seq: row.conversation_seq,
  role: row.role,
  content: row.content,
  code: row.system_code,
  citations: row.citations,
  low_confidence: row.low_confidence,
  author: row.author_name !== null ? { id: row.operator_id, name: row.author_name } : null,
  created_at: iso(row.created_at),
  curated_answer_id: row.curated_answer_id,
});

/** The conversation's last `limit` messages, oldest first, and whether earlier ones exist. */
export async function listLatestConsoleMessages(
  db: Queryable,
  conversationId: string,
  limit: number,
): Promise<{ messages: ConsoleMessage[]; hasEarlier: boolean }> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE conversation_id = $1 ORDER BY seq DESC LIMIT $2`,
    [conversationId, limit + 1],
  );
  const hasEarlier = rows.length > limit;
  return { messages: rows.slice(0, limit).reverse().map(toConsoleMessage), hasEarlier };
}

/**
 * Moves the operator's read marker of the workspace's conversation forward to `seq` (the
 * conversation's latest seq when null; never past it, never backwards). Null when the
 * conversation is not the workspace's.
 */
export async function markConversationRead(
  db: Queryable,
  workspaceId: string,
  operatorId: string,
  conversationId: string,
  seq: number | null,
): Promise<{ lastReadSeq: number; unreadCount: number } | null> {
  const { rows } = await db.query<{ last_read_seq: number; unread_count: number | string }>(
    `WITH target AS (
       SELECT c.id, LEAST(COALESCE($4::integer, c.event_seq), c.event_seq) AS seq
       FROM conversations c WHERE c.id = $3 AND c.workspace_id = $1
     ), marked AS (
       INSERT INTO conversation_reads (operator_id, conversation_id, last_read_seq, read_at)
       SELECT $2, target.id, target.seq, now() FROM target
       ON CONFLICT (operator_id, conversation_id) DO UPDATE SET
         last_read_seq = GREATEST(conversation_reads.last_read_seq, EXCLUDED.last_read_seq), read_at = now()
       RETURNING conversation_id, last_read_seq
     )
     SELECT marked.last_read_seq,
       (SELECT count(*) FROM messages unread WHERE unread.conversation_id = marked.conversation_id
          AND unread.role = 'visitor' AND unread.conversation_seq > marked.last_read_seq) AS unread_count
     FROM marked`,
    [workspaceId, operatorId, conversationId, seq],
  );
  const row = rows[0];
  return row ? { lastReadSeq: row.last_read_seq, unreadCount: Number(row.unread_count) } : null;
}

/** The seq up to which the operator has read the conversation (0: never opened it). */
export async function findOperatorReadSeq(db: Queryable, operatorId: string, conversationId: string): Promise<number> {
  const { rows } = await db.query<{ last_read_seq: number | string }>(
    `SELECT last_read_seq FROM conversation_reads WHERE operator_id = $1 AND conversation_id = $2`,
    [operatorId, conversationId],
  );
  return rows[0] ? Number(rows[0].last_read_seq) : 0;
}
