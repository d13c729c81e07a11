import type { Citation } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso } from "../db/timestamps.js";

export interface StoredMessage {
  id: string;
  createdAt: string;
  /** The conversation's human request, as of this write (never from a cache). */
  humanRequestedAt: Date | null;
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

/** Stores one message of a conversation and marks the conversation active. */
export async function insertMessage(db: Queryable, message: NewMessage): Promise<StoredMessage> {
  const { rows } = await db.query<{ id: string; created_at: Date; human_requested_at: Date | null }>(
    `WITH inserted AS (
       INSERT INTO messages (id, conversation_id, role, content, citations, low_confidence, generator, latency_ms)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8)
       RETURNING id, created_at, conversation_id
     ), touched AS (
       UPDATE conversations SET last_activity_at = now() WHERE id = (SELECT conversation_id FROM inserted)
       RETURNING human_requested_at
     )
     SELECT inserted.id, inserted.created_at, touched.human_requested_at FROM inserted, touched`,
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
  const row = rows[0]!;
  return { id: row.id, createdAt: iso(row.created_at), humanRequestedAt: row.human_requested_at };
}
