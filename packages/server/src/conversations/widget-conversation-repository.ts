import type { ConversationStatus } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { iso, isoOrNull } from "../db/timestamps.js";
import { lockedVisitorOf } from "./visitor-lock.js";

export interface ConversationRecord {
  id: string;
  workspaceId: string;
  agentId: string;
  visitorId: string;
  pageUrl: string | null;
  humanRequestedAt: string | null;
  humanRequestReason: string | null;
  status: ConversationStatus;
  assigneeOperatorId: string | null;
  /** The bot stays quiet: a person was asked for or has the conversation. */
  botPaused: boolean;
  satisfaction: { rating: "good" | "bad"; comment: string | null; ratedAt: string } | null;
  couponCode: string | null;
  couponAppliedAt: string | null;
  createdAt: string;
  lastActivityAt: string;
  /** The seq of the conversation's latest `conversation.updated` (null: none yet). */
  updatedSeq: number | null;
}

interface ConversationRow {
  id: string;
  workspace_id: string;
  agent_id: string;
  visitor_id: string;
  page_url: string | null;
  human_requested_at: Date | null;
  human_request_reason: string | null;
  status: ConversationStatus;
  assignee_operator_id: string | null;
  satisfaction_rating: "good" | "bad" | null;
  satisfaction_comment: string | null;
  satisfaction_at: Date | null;
  coupon_code: string | null;
  coupon_applied_at: Date | null;
  created_at: Date;
  last_activity_at: Date;
  updated_seq: number | null;
}

function toConversation(row: ConversationRow): ConversationRecord {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    agentId: row.agent_id,
    visitorId: row.visitor_id,
    pageUrl: row.page_url,
    humanRequestedAt: isoOrNull(row.human_requested_at),
    humanRequestReason: row.human_request_reason,
    status: row.status,
    assigneeOperatorId: row.assignee_operator_id,
    botPaused: row.status === "awaiting_human" || row.status === "human",
    satisfaction:
      row.satisfaction_rating && row.satisfaction_at
        ? { rating: row.satisfaction_rating, comment: row.satisfaction_comment, ratedAt: iso(row.satisfaction_at) }
        : null,
    couponCode: row.coupon_code,
    couponAppliedAt: isoOrNull(row.coupon_applied_at),
    createdAt: iso(row.created_at),
    lastActivityAt: iso(row.last_activity_at),
    updatedSeq: row.updated_seq,
  };
}

export async function findConversation(db: Queryable, conversationId: string): Promise<ConversationRecord | null> {
  const { rows } = await db.query<ConversationRow>(`SELECT * FROM conversations WHERE id = $1`, [conversationId]);
  return rows[0] ? toConversation(rows[0]) : null;
}

/**
 * Stores the visitor's rating, after locking the visitor's row (visitor-lock.ts). Null when the
 * conversation or its visitor is gone (erased, purged): nothing is written.
 */
export async function rateConversation(
  db: Queryable,
  conversationId: string,
  rating: "good" | "bad",
  comment: string | null,
): Promise<ConversationRecord | null> {
  const { rows } = await db.query<ConversationRow>(
    `WITH session_visitor AS (${lockedVisitorOf("$1")})
     UPDATE conversations c SET satisfaction_rating = $2, satisfaction_comment = $3, satisfaction_at = now(),
       last_activity_at = now()
     FROM session_visitor WHERE c.id = $1 AND c.visitor_id = session_visitor.id RETURNING c.*`,
    [conversationId, rating, comment],
  );
  return rows[0] ? toConversation(rows[0]) : null;
}

/** Stamps the coupon the visitor applied, after locking the visitor's row (visitor-lock.ts). Null when the conversation or its visitor is gone. */
export async function stampCoupon(db: Queryable, conversationId: string, code: string): Promise<ConversationRecord | null> {
  const { rows } = await db.query<ConversationRow>(
    `WITH session_visitor AS (${lockedVisitorOf("$1")})
     UPDATE conversations c SET coupon_code = $2, coupon_applied_at = now(), last_activity_at = now()
     FROM session_visitor WHERE c.id = $1 AND c.visitor_id = session_visitor.id RETURNING c.*`,
    [conversationId, code],
  );
  return rows[0] ? toConversation(rows[0]) : null;
}

/** Marks the conversation active (the visitor left their contact details in it), at most once a minute. */
export async function touchConversationActivity(db: Queryable, conversationId: string): Promise<void> {
  await db.query(`UPDATE conversations SET last_activity_at = now() WHERE id = $1 AND last_activity_at < now() - interval '1 minute'`, [conversationId]);
}
