import type { AnswerTrace, Citation, ConversationStatus, SystemMessageCode } from "@frontdesk/contracts";
import type { Queryable, SqlValue } from "../db/database.js";
import { newId } from "../db/ids.js";
import { iso } from "../db/timestamps.js";

export interface StoredMessage {
  id: string;
  createdAt: string;
  /** The conversation's state as of this write (never from a cache). */
  status: ConversationStatus;
  /** The seq of this message's `message.created` in its conversation (see 0005-conversation-event-seq). */
  seq: number;
}

export interface NewMessage {
  conversationId: string;
  role: "visitor" | "bot" | "operator" | "system";
  content: string;
  /** A system message's stable code (conversations/apply-transition.ts). */
  systemCode?: SystemMessageCode | null;
  citations?: Citation[];
  lowConfidence?: boolean;
  generator?: string | null;
  latencyMs?: number | null;
  /** The operator who wrote it (role `operator`) or who joined (system `operator_joined`), with their name as it is now. */
  author?: { id: string; name: string } | null;
  /** The curated answer a bot reply was served from (see console/curated/find-curated-answer.ts). */
  curatedAnswerId?: string | null;
  /** Why the pipeline answered so (a bot reply; answering/answer-trace.ts), for the console's review queue. */
  answerTrace?: AnswerTrace | null;
}

/**
 * When a message may be stored, checked on the conversation's row in the statement that stores it:
 * `always`; `open` (not while the conversation is closed); or `botSince` a seq (the bot's reply:
 * only while the state is `bot` and has not changed since that seq, the visitor's question).
 */
type StoreCondition = { kind: "always" } | { kind: "open" } | { kind: "botSince"; seq: number };

/** A turn of the conversation before a visitor's question, as the answer reads it (and whether a bot reply was unsure). */
export type HistoryTurn = Pick<NewMessage, "role" | "content"> & { lowConfidence: boolean };

/** A visitor's question as stored, with what answering it reads in the same statement. */
export interface StoredQuestion extends StoredMessage {
  /** The conversation's last messages before the question, oldest first (at most the limit asked); empty outside `bot`. */
  history: HistoryTurn[];
  /** Whether the conversation's agent has any curated answer (if not, none is looked for). */
  agentHasCuratedAnswers: boolean;
}

/**
 * The statement that stores a message when `condition` ($11, $12) holds, marks the conversation
 * active and takes the conversation's next event seq for it (the conversation's row lock orders
 * concurrent messages), up to its final SELECT: `touched` is the conversation's row, `inserted`
 * the message.
 */
const INSERT_MESSAGE_WHEN = `WITH touched AS (
       UPDATE conversations SET last_activity_at = now(), event_seq = event_seq + 1
       WHERE id = $2::text
         AND ($11::text = 'always'
           OR ($11::text = 'open' AND status <> 'closed')
           OR ($11::text = 'botSince' AND status = 'bot' AND COALESCE(updated_seq, 0) < $12::integer))
       RETURNING event_seq, status, agent_id
     ), inserted AS (
       INSERT INTO messages (id, conversation_id, role, content, citations, low_confidence, generator, latency_ms, conversation_seq, operator_id, author_name, curated_answer_id, system_code, answer_trace)
       SELECT $1::text, $2::text, $3::text, $4::text, $5::jsonb, $6::boolean, $7::text, $8::integer, touched.event_seq, $9::text, $10::text, $13::text, $14::text, $15::jsonb FROM touched
       RETURNING id, created_at, conversation_seq
     )`;

function insertParameters(message: NewMessage, condition: StoreCondition): SqlValue[] {
  return [
    newId("msg"),
    message.conversationId,
    message.role,
    message.content,
    JSON.stringify(message.citations ?? []),
    message.lowConfidence ?? false,
    message.generator ?? null,
    message.latencyMs ?? null,
    message.author?.id ?? null,
    message.author?.name ?? null,
    condition.kind,
    condition.kind === "botSince" ? condition.seq : null,
    message.curatedAnswerId ?? null,
    message.systemCode ?? null,
    message.answerTrace ? JSON.stringify(message.answerTrace) : null,
  ];
}

interface InsertedRow {
  id: string;
  created_at: Date;
  status: ConversationStatus;
  conversation_seq: number;
}

const toStored = (row: InsertedRow): StoredMessage => ({ id: row.id, createdAt: iso(row.created_at), status: row.status, seq: row.conversation_seq });

/** Stores one message when `condition` holds (see INSERT_MESSAGE_WHEN). Null when it did not (nothing is written). */
async function insertMessageWhen(db: Queryable, message: NewMessage, condition: StoreCondition): Promise<StoredMessage | null> {
  const { rows } = await db.query<InsertedRow>(
    `${INSERT_MESSAGE_WHEN}
     SELECT inserted.id, inserted.created_at, inserted.conversation_seq, touched.status FROM inserted, touched`,
    insertParameters(message, condition),
  );
  const row = rows[0];
  return row ? toStored(row) : null;
}

/**
 * Stores a visitor's question when `condition` holds (`open`: not in a closed conversation), and
 * in the same statement, when the conversation is in `bot` (the bot will answer), reads the
 * `historyTurns` messages before it and whether the agent has curated answers: one round trip
 * instead of three. In other states neither is read (a CASE runs its subquery only when taken).
 * The history is read in the statement's snapshot, which the question's own insert does not
 * change: the messages before it.
 */
export async function insertVisitorQuestion(
  db: Queryable,
  message: { conversationId: string; content: string },
  condition: "open" | "always",
  historyTurns: number,
): Promise<StoredQuestion | null> {
  const { rows } = await db.query<InsertedRow & { history: HistoryTurn[] | null; agent_has_curated_answers: boolean }>(
    `${INSERT_MESSAGE_WHEN}
     SELECT inserted.id, inserted.created_at, inserted.conversation_seq, touched.status,
       CASE WHEN touched.status = 'bot' THEN
         (SELECT json_agg(json_build_object('role', recent.role, 'content', recent.content, 'lowConfidence', recent.low_confidence) ORDER BY recent.seq)
          FROM (SELECT role, content, low_confidence, seq FROM messages WHERE conversation_id = $2::text ORDER BY seq DESC LIMIT $16) recent)
       END AS history,
       touched.status = 'bot' AND EXISTS (SELECT 1 FROM curated_answers WHERE agent_id = touched.agent_id) AS agent_has_curated_answers
     FROM inserted, touched`,
    [...insertParameters({ ...message, role: "visitor" }, { kind: condition }), historyTurns],
  );
  const row = rows[0];
  return row ? { ...toStored(row), history: row.history ?? [], agentHasCuratedAnswers: row.agent_has_curated_answers } : null;
}

/** Stores one message whatever the conversation's state (a transition's system message, an operator's reply under the row lock). */
export async function insertMessage(db: Queryable, message: NewMessage): Promise<StoredMessage> {
  const stored = await insertMessageWhen(db, message, { kind: "always" });
  if (!stored) throw new Error(`conversation ${message.conversationId} does not exist`);
  return stored;
}

/**
 * Stores the bot's reply to the visitor's message of seq `questionSeq` only if the conversation is
 * in `bot` and its state has not changed since that question (an operator who took over and
 * released meanwhile still discards it). Null: discarded.
 */
export function insertBotReply(db: Queryable, message: NewMessage, questionSeq: number): Promise<StoredMessage | null> {
  return insertMessageWhen(db, { ...message, role: "bot" }, { kind: "botSince", seq: questionSeq });
}

/**
 * A visitor's question already stored, read as insertVisitorQuestion returns it (its conversation's
 * state now, the `historyTurns` messages before it, whether the agent has curated answers): a repeat
 * of an idempotency key answers it when the request that stored it ended without an answer.
 */
export async function readVisitorQuestion(db: Queryable, conversationId: string, messageId: string, historyTurns: number): Promise<StoredQuestion | null> {
  const { rows } = await db.query<InsertedRow & { history: HistoryTurn[] | null; agent_has_curated_answers: boolean }>(
    `SELECT m.id, m.created_at, m.conversation_seq, c.status,
       CASE WHEN c.status = 'bot' THEN
         (SELECT json_agg(json_build_object('role', recent.role, 'content', recent.content, 'lowConfidence', recent.low_confidence) ORDER BY recent.seq)
          FROM (SELECT role, content, low_confidence, seq FROM messages WHERE conversation_id = $1 AND seq < m.seq ORDER BY seq DESC LIMIT $3) recent)
       END AS history,
       c.status = 'bot' AND EXISTS (SELECT 1 FROM curated_answers WHERE agent_id = c.agent_id) AS agent_has_curated_answers
     FROM messages m JOIN conversations c ON c.id = m.conversation_id
     WHERE m.conversation_id = $1 AND m.id = $2 AND m.role = 'visitor'`,
    [conversationId, messageId, historyTurns],
  );
  const row = rows[0];
  return row ? { ...toStored(row), history: row.history ?? [], agentHasCuratedAnswers: row.agent_has_curated_answers } : null;
}
