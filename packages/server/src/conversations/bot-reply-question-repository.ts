import type { Queryable } from "../db/database.js";
import { iso } from "../db/timestamps.js";

/**
 * The visitor questions an agent's bot answered with low confidence in [from, to), newest first
 * (at most `limit`): each low-confidence bot reply (messages_low_confidence_bot_idx, 0013) with
 * the visitor's message just before it in its conversation.
 */
export async function listLowConfidenceQuestions(
  db: Queryable,
  scope: { workspaceId: string; agentId: string; from: Date; to: Date },
  limit: number,
): Promise<{ question: string; askedAt: string }[]> {
  const { rows } = await db.query<{ question: string; answered_at: Date }>(
    `SELECT q.content AS question, m.created_at AS answered_at
     FROM conversations c
     JOIN messages m ON m.conversation_id = c.id AND m.role = 'bot' AND m.low_confidence
       AND m.created_at >= $3 AND m.created_at < $4
     JOIN LATERAL (
       SELECT v.content FROM messages v
       WHERE v.conversation_id = m.conversation_id AND v.role = 'visitor' AND v.seq < m.seq
       ORDER BY v.seq DESC LIMIT 1
     ) q ON true
     WHERE c.agent_id = $1 AND c.workspace_id = $2
     ORDER BY m.created_at DESC, m.seq DESC
     LIMIT $5`,
    [scope.agentId, scope.workspaceId, scope.from, scope.to, limit],
  );
  return rows.map((row) => ({ question: row.question, askedAt: iso(row.answered_at) }));
}

/**
 * "Fix this answer" from a bot message: its conversation's agent and the visitor's message just
 * before it (null question when there is none), and the visitor who asked it. Null when the message is not a bot message of the workspace.
 */
export async function findQuestionOfBotMessage(
  db: Queryable,
  workspaceId: string,
  messageId: string,
): Promise<{ agentId: string; visitorId: string; question: string | null } | null> {
  const { rows } = await db.query<{ agent_id: string; visitor_id: string; question: string | null }>(
    `SELECT c.agent_id, c.visitor_id,
       (SELECT v.content FROM messages v
         WHERE v.conversation_id = m.conversation_id AND v.role = 'visitor' AND v.seq < m.seq
         ORDER BY v.seq DESC LIMIT 1) AS question
     FROM messages m JOIN conversations c ON c.id = m.conversation_id
     WHERE m.id = $1 AND m.role = 'bot' AND c.workspace_id = $2`,
    [messageId, workspaceId],
  );
  const row = rows[0];
  return row ? { agentId: row.agent_id, visitorId: row.visitor_id, question: row.question } : null;
}
