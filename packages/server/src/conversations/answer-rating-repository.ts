import type { AnswerRating } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { iso } from "../db/timestamps.js";

/** A bot answer's rating as stored. */
export interface StoredAnswerRating {
  messageId: string;
  conversationId: string;
  rating: AnswerRating;
  comment: string | null;
  ratedAt: string;
}

/**
 * Rates the bot message `messageId` of the conversation `conversationId`, replacing an earlier
 * rating; null when the conversation has no bot message of that id (another conversation's, a
 * visitor's or an operator's message, an unknown id: the caller cannot tell them apart). Reached by
 * the message's primary key.
 */
export async function rateBotMessage(
  tx: Queryable,
  input: { conversationId: string; messageId: string; rating: AnswerRating; comment: string | null },
): Promise<StoredAnswerRating | null> {
  const { rows } = await tx.query<{ id: string; conversation_id: string; rating: AnswerRating; rating_comment: string | null; rated_at: Date }>(
    `UPDATE messages SET rating = $3, rating_comment = $4, rated_at = now()
     WHERE id = $1 AND conversation_id = $2 AND role = 'bot'
     RETURNING id, conversation_id, rating, rating_comment, rated_at`,
    [input.messageId, input.conversationId, input.rating, input.comment],
  );
  const row = rows[0];
  return row ? { messageId: row.id, conversationId: row.conversation_id, rating: row.rating, comment: row.rating_comment, ratedAt: iso(row.rated_at) } : null;
}
