import type { ConversationMessage } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso } from "../db/timestamps.js";
import type { Vertical } from "../tenants/agent.js";

export interface Visitor {
  id: string;
  anonId: string;
}

export interface ConversationSummary {
  id: string;
  lastActivityAt: Date;
}

/** The conversation a session token points at, with what every widget call needs of its agent. */
export interface SessionConversation {
  id: string;
  workspaceId: string;
  agentId: string;
  visitorId: string;
  agentPublished: boolean;
  vertical: Vertical;
}

/** Creates or refreshes the visitor, returning it with its latest conversation (one round trip). */
export async function upsertVisitor(
  db: Queryable,
  agentId: string,
  anonId: string,
): Promise<{ visitor: Visitor; latest: ConversationSummary | null }> {
  const { rows } = await db.query<{ id: string; anon_id: string; conversation_id: string | null; last_activity_at: Date | null }>(
    `WITH visitor AS (
       INSERT INTO visitors (id, agent_id, anon_id) VALUES ($1, $2, $3)
       ON CONFLICT (agent_id, anon_id) DO UPDATE SET last_seen_at = now()
       RETURNING id, anon_id
     )
     SELECT visitor.id, visitor.anon_id, latest.id AS conversation_id, latest.last_activity_at
     FROM visitor LEFT JOIN LATERAL (
       SELECT c.id, c.last_activity_at FROM conversations c WHERE c.visitor_id = visitor.id ORDER BY c.created_at DESC LIMIT 1
     ) latest ON true`,
    [newId("vis"), agentId, anonId],
  );
  const row = rows[0]!;
  return {
    visitor: { id: row.id, anonId: row.anon_id },
    latest: row.conversation_id && row.last_activity_at ? { id: row.conversation_id, lastActivityAt: new Date(row.last_activity_at) } : null,
  };
}

/**
 * Starts a conversation counted against the workspace's monthly quota, in one statement: the
 * counter row is locked by the upsert, its condition re-checked, and the conversation inserted
 * only when it counted. Exact under concurrency. Returns null when the quota is spent.
 */
export async function insertCountedConversation(
  db: Queryable,
  conversation: { workspaceId: string; agentId: string; visitorId: string; pageUrl: string; userAgent: string | null; month: string; quota: number | null },
): Promise<string | null> {
  if (conversation.quota !== null && conversation.quota <= 0) return null;
  const { rows } = await db.query<{ id: string }>(
    `WITH counted AS (
       INSERT INTO conversation_counters (workspace_id, month, count) VALUES ($2, $6::date, 1)
       ON CONFLICT (workspace_id, month) DO UPDATE SET count = conversation_counters.count + 1
         WHERE $7::integer IS NULL OR conversation_counters.count < $7::integer
       RETURNING 1
     )
     INSERT INTO conversations (id, workspace_id, agent_id, visitor_id, page_url, last_page_url, user_agent)
     SELECT $1, $2, $3, $4, $5, $5, $8 FROM counted
     RETURNING id`,
    [newId("cnv"), conversation.workspaceId, conversation.agentId, conversation.visitorId, conversation.pageUrl, conversation.month, conversation.quota, conversation.userAgent],
  );
  return rows[0]?.id ?? null;
}

/** A resumed conversation: active now, and the visitor's page and browser are those of this init (the console shows them). */
export async function touchConversation(db: Queryable, conversationId: string, visit: { pageUrl: string; userAgent: string | null }): Promise<void> {
  await db.query(`UPDATE conversations SET last_activity_at = now(), last_page_url = $2, user_agent = COALESCE($3, user_agent) WHERE id = $1`, [
    conversationId,
    visit.pageUrl,
    visit.userAgent,
  ]);
}

/**
 * Where the visitor says they are, with their message: `page_url` becomes the conversation's last
 * page (the console shows it) and `page_context` its last page context (migration 0009). One
 * statement for both, and none when neither is given; a row that already holds them is not written.
 */
export async function recordVisitorPage(
  db: Queryable,
  conversationId: string,
  page: { pageUrl?: string | undefined; pageContext?: Record<string, unknown> | undefined },
): Promise<void> {
  if (page.pageUrl === undefined && page.pageContext === undefined) return;
  await db.query(
    `UPDATE conversations SET last_page_url = COALESCE($2::text, last_page_url), last_page_context = COALESCE($3::jsonb, last_page_context)
     WHERE id = $1::text
       AND (last_page_url IS DISTINCT FROM COALESCE($2::text, last_page_url) OR last_page_context IS DISTINCT FROM COALESCE($3::jsonb, last_page_context))`,
    [conversationId, page.pageUrl ?? null, page.pageContext === undefined ? null : JSON.stringify(page.pageContext)],
  );
}

interface MessageRow {
  id: string;
  conversation_seq: number | null;
  role: ConversationMessage["role"];
  content: string;
  system_code: ConversationMessage["code"];
  citations: ConversationMessage["citations"];
  author_name: string | null;
  created_at: Date;
  curated_answer_id: string | null;
}

const MESSAGE_COLUMNS = `id, conversation_seq, role, content, system_code, citations, author_name, created_at, curated_answer_id`;

const toMessage = (row: MessageRow): ConversationMessage => ({
  id: row.id,
  seq: row.conversation_seq,
  role: row.role,
  content: row.content,
  code: row.system_code,
  citations: row.citations,
  author: row.author_name !== null ? { name: row.author_name } : null,
  created_at: iso(row.created_at),
  ...(row.curated_answer_id !== null ? { curated: true } : {}),
});

/** The last `limit` messages of the conversation (system messages included), oldest first. */
export async function listRecentMessages(db: Queryable, conversationId: string, limit: number): Promise<ConversationMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE conversation_id = $1 ORDER BY seq DESC LIMIT $2`,
    [conversationId, limit],
  );
  return rows.reverse().map(toMessage);
}

/**
 * The last `limit` messages of the conversation stored before the message `messageId` (system
 * messages included), oldest first: the history of the question `messageId` (messages_conversation_seq_idx).
 */
export async function listMessagesBefore(db: Queryable, conversationId: string, messageId: string, limit: number): Promise<ConversationMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS} FROM messages
     WHERE conversation_id = $1 AND seq < (SELECT question.seq FROM messages question WHERE question.id = $2 AND question.conversation_id = $1)
     ORDER BY seq DESC LIMIT $3`,
    [conversationId, messageId, limit],
  );
  return rows.reverse().map(toMessage);
}

export async function findSessionConversation(db: Queryable, conversationId: string): Promise<SessionConversation | null> {
  const { rows } = await db.query<{
    id: string;
    workspace_id: string;
    agent_id: string;
    visitor_id: string;
    published: boolean;
    vertical: Vertical;
  }>(
    `SELECT c.id, c.workspace_id, c.agent_id, c.visitor_id, a.published, a.vertical
     FROM conversations c JOIN agents a ON a.id = c.agent_id WHERE c.id = $1`,
    [conversationId],
  );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        workspaceId: row.workspace_id,
        agentId: row.agent_id,
        visitorId: row.visitor_id,
        agentPublished: row.published,
        vertical: row.vertical,
      }
    : null;
}
