import type { AnswerRating, ConversationStatus } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { iso } from "../db/timestamps.js";

/** A conversation's visitor as its profile starts: who, with what browser, where from. Null when the conversation is not the workspace's. */
export interface ConversationVisitor {
  conversationId: string;
  agentId: string;
  visitorId: string;
  anonId: string;
  firstSeenAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  timeZone: string | null;
  language: string | null;
  /** The page it started on, then each other page the visitor wrote from (migration 0044). */
  pages: { url: string; title: string | null; at: string }[];
}

interface VisitorRow {
  id: string;
  agent_id: string;
  visitor_id: string;
  anon_id: string;
  first_seen_at: Date;
  last_seen_at: Date;
  user_agent: string | null;
  time_zone: string | null;
  language: string | null;
  page_url: string | null;
  created_at: Date;
  visited_pages: { url: string; title: string | null; at: string }[];
}

/** The visitor of the workspace's conversation (its primary key, then the visitor's). */
export async function findConversationVisitor(db: Queryable, workspaceId: string, conversationId: string): Promise<ConversationVisitor | null> {
  const { rows } = await db.query<VisitorRow>(
    `SELECT c.id, c.agent_id, c.visitor_id, v.anon_id, v.created_at AS first_seen_at, v.last_seen_at, c.user_agent, c.time_zone, c.language,
       c.page_url, c.created_at, c.visited_pages
     FROM conversations c JOIN visitors v ON v.id = c.visitor_id
     WHERE c.id = $1 AND c.workspace_id = $2`,
    [conversationId, workspaceId],
  );
  const row = rows[0];
  if (!row) return null;
  const first = row.page_url ? [{ url: row.page_url, title: null, at: iso(row.created_at) }] : [];
  return {
    conversationId: row.id,
    agentId: row.agent_id,
    visitorId: row.visitor_id,
    anonId: row.anon_id,
    firstSeenAt: iso(row.first_seen_at),
    lastSeenAt: iso(row.last_seen_at),
    userAgent: row.user_agent,
    timeZone: row.time_zone,
    language: row.language,
    pages: [...first, ...row.visited_pages.map((page) => ({ url: page.url, title: page.title ?? null, at: iso(page.at) }))],
  };
}

export interface VisitorConversationSummary {
  id: string;
  status: ConversationStatus;
  firstMessage: string | null;
  satisfaction: { rating: "good" | "bad"; comment: string | null; ratedAt: string } | null;
  createdAt: string;
  lastActivityAt: string;
}

/** The visitor's conversations in the workspace, newest first (conversations_visitor_recent_idx), with their first visitor message and rating. */
export async function listVisitorConversationSummaries(db: Queryable, scope: { workspaceId: string; visitorId: string; limit: number }): Promise<VisitorConversationSummary[]> {
  const { rows } = await db.query<{
    id: string;
    status: ConversationStatus;
    first_message: string | null;
    satisfaction_rating: "good" | "bad" | null;
    satisfaction_comment: string | null;
    satisfaction_at: Date | null;
    created_at: Date;
    last_activity_at: Date;
  }>(
    `SELECT c.id, c.status, c.satisfaction_rating, c.satisfaction_comment, c.satisfaction_at, c.created_at, c.last_activity_at,
       (SELECT left(m.content, 120) FROM messages m WHERE m.conversation_id = c.id AND m.role = 'visitor' ORDER BY m.seq LIMIT 1) AS first_message
     FROM conversations c WHERE c.visitor_id = $1 AND c.workspace_id = $2
     ORDER BY c.created_at DESC, c.id LIMIT $3`,
    [scope.visitorId, scope.workspaceId, scope.limit],
  );
  return rows.map((row) => ({
    id: row.id,
    status: row.status,
    firstMessage: row.first_message,
    satisfaction:
      row.satisfaction_rating && row.satisfaction_at ? { rating: row.satisfaction_rating, comment: row.satisfaction_comment, ratedAt: iso(row.satisfaction_at) } : null,
    createdAt: iso(row.created_at),
    lastActivityAt: iso(row.last_activity_at),
  }));
}

export interface VisitorAnswerRating {
  messageId: string;
  conversationId: string;
  rating: AnswerRating;
  comment: string | null;
  excerpt: string;
  ratedAt: string;
}

/** The bot answers the visitor rated in any of their conversations of the workspace, newest first (their conversations, then each one's messages). */
export async function listVisitorAnswerRatings(db: Queryable, scope: { workspaceId: string; visitorId: string; limit: number }): Promise<VisitorAnswerRating[]> {
  const { rows } = await db.query<{ id: string; conversation_id: string; rating: AnswerRating; rating_comment: string | null; excerpt: string; rated_at: Date }>(
    `SELECT m.id, m.conversation_id, m.rating, m.rating_comment, left(m.content, 200) AS excerpt, m.rated_at
     FROM conversations c JOIN messages m ON m.conversation_id = c.id
     WHERE c.visitor_id = $1 AND c.workspace_id = $2 AND m.rating IS NOT NULL AND m.rated_at IS NOT NULL
     ORDER BY m.rated_at DESC, m.id LIMIT $3`,
    [scope.visitorId, scope.workspaceId, scope.limit],
  );
  return rows.map((row) => ({
    messageId: row.id,
    conversationId: row.conversation_id,
    rating: row.rating,
    comment: row.rating_comment,
    excerpt: row.excerpt,
    ratedAt: iso(row.rated_at),
  }));
}
