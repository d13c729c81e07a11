import type { Citation } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso } from "../db/timestamps.js";

export interface StoredMessage {
  id: string;
  createdAt: string;
  /** The conversation's human request, as of this write (never from a cache). */
  humanRequestedAt: Date | null;
  /** The seq of this message's `message.created` in its conversation (see 0005-conversation-event-seq). */
  seq: number;
}

export interface NewMessage {
  conversationId: string;
  role: "visitor" | "bot" | "operator" | "system";
  content: string;
  citations?: Citation[];
  lowConfidence?: boolean;
  generator?: string | null;
  latencyMs?: number | null;
}

/**
 * Stores one message of a conversation, marks the conversation active and takes the conversation's
 * next event seq for it (the conversation's row lock orders concurrent messages).
 */
export async function insertMessage(db: Queryable, message: NewMessage): Promise<StoredMessage> {
  const { rows } = await db.query<{ id: string; created_at: Date; human_requested_at: Date | null; conversation_seq: number }>(
    `WITH touched AS (
       UPDATE conversations SET last_activity_at = now(), event_seq = event_seq + 1 WHERE id = $2::text
       RETURNING event_seq, human_requested_at
     ), inserted AS (
       INSERT INTO messages (id, conversation_id, role, content, citations, low_confidence, generator, latency_ms, conversation_seq)
       SELECT $1::text, $2::text, $3::text, $4::text, $5::jsonb, $6::boolean, $7::text, $8::integer, touched.event_seq FROM touched
       RETURNING id, created_at, conversation_seq
     )
     SELECT inserted.id, inserted.created_at, inserted.conversation_seq, touched.human_requested_at FROM inserted, touched`,
    [
      newId("msg"),
      message.conversationId,
      message.role,
      message.content,
      JSON.stringify(message.citations ?? []),
      message.lowConfidence ?? false,
      message.generator ?? null,
      message.latencyMs ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error(`conversation ${message.conversationId} does not exist`);
  return { id: row.id, createdAt: iso(row.created_at), humanRequestedAt: row.human_requested_at, seq: row.conversation_seq };
}
