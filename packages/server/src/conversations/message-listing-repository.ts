import type { Citation, ConsoleMessage, SystemMessageCode } from "@frontdesk/contracts";
import type { Queryable } from "../db/database.js";
import { iso } from "../db/timestamps.js";

/** A stored message of a conversation, as the visitor's and the console's catch-up read it. */
export interface ListedMessage {
  id: string;
  /** Its `conversation_seq`; null for messages stored before events were counted (migration 0005). */
  seq: number | null;
  role: ConsoleMessage["role"];
  content: string;
  /** A system message's stable code (null for the other roles). */
  code: SystemMessageCode | null;
  citations: Citation[];
  lowConfidence: boolean;
  /** The operator who wrote it (role `operator`) or who joined (system `operator_joined`), with their name as it was then. */
  author: { id: string | null; name: string } | null;
  createdAt: string;
  /** The curated answer a bot reply was served from, else null. */
  curatedAnswerId: string | null;
}

interface MessageRow {
  id: string;
  conversation_seq: number | null;
  role: ConsoleMessage["role"];
  content: string;
  system_code: SystemMessageCode | null;
  citations: Citation[];
  low_confidence: boolean;
  operator_id: string | null;
  author_name: string | null;
  created_at: Date;
  curated_answer_id: string | null;
}

const toListedMessage = (row: MessageRow): ListedMessage => ({
  id: row.id,
  seq: row.conversation_seq,
  role: row.role,
  content: row.content,
  code: row.system_code,
  citations: row.citations,
  lowConfidence: row.low_confidence,
  author: row.author_name !== null ? { id: row.operator_id, name: row.author_name } : null,
  createdAt: iso(row.created_at),
  curatedAnswerId: row.curated_answer_id,
});

/**
 * The messages of the workspace's conversation whose seq is above `afterSeq`, at most `limit`
 * (and whether more follow): the catch-up of GET /widget/conversation/messages and
 * GET /console/conversations/{id}/messages. Nothing when the conversation is not the workspace's.
 *
 * Order: `conversation_seq`, then the insertion order (`messages.seq`). Messages stored before
 * seqs existed (null) are older than every counted one, so they come first, and only from 0: seqs
 * start at 1, so `after_seq=0` is the whole conversation. Gapless: a message takes its seq under
 * the conversation's row lock, held until its transaction commits, so no message of a lower seq
 * can appear after a higher one is visible. Reads messages_conversation_catch_up_idx (0012), whose
 * order is this one: the scan starts after `afterSeq` and stops at `limit`, with no sort.
 */
export async function listMessagesAfterSeq(
  db: Queryable,
  scope: { workspaceId: string; conversationId: string; afterSeq: number; limit: number },
): Promise<{ messages: ListedMessage[]; hasMore: boolean }> {
  const { rows } = await db.query<MessageRow>(
    `SELECT m.id, m.conversation_seq, m.role, m.content, m.system_code, m.citations, m.low_confidence, m.operator_id, m.author_name, m.created_at, m.curated_answer_id
     FROM messages m
     WHERE m.conversation_id = $2::text
       AND EXISTS (SELECT 1 FROM conversations c WHERE c.id = $2::text AND c.workspace_id = $1::text)
       AND ($3::integer = 0 OR m.conversation_seq > $3::integer)
     ORDER BY m.conversation_seq NULLS FIRST, m.seq
     LIMIT $4::integer`,
    [scope.workspaceId, scope.conversationId, scope.afterSeq, scope.limit + 1],
  );
  return { messages: rows.slice(0, scope.limit).map(toListedMessage), hasMore: rows.length > scope.limit };
}
