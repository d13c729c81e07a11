import type { Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";

/*
 * The one lock order of a visitor's data, shared by erasure and by every write that touches a
 * visitor's conversation, so that no two of them can wait on each other in a circle (Postgres would
 * end one of them with 40P01, "deadlock detected"):
 *
 *   1. the visitor's row (`visitors`);
 *   2. the visitor's conversations (`conversations`), in id order when there are several;
 *   3. the rows under them: messages, leads, events, inbox notifications, read marks, queued jobs.
 *
 * Erasure (privacy/delete-visitor-data.ts, through each owner) locks 1 FOR UPDATE, then 2 FOR UPDATE, then deletes 3.
 * Postgres itself locks the visitor FOR KEY SHARE, late, in two cases: the foreign-key check of a
 * lead or an event (at the end of its statement, after the conversation's), and that of a
 * conversation's row updated a second time in one transaction (every transition: its state, then
 * its system message's seq). So these lock the visitor FOR KEY SHARE first, with lockedVisitorOf
 * below: the lead, the event, the rating and the coupon, and every transition through
 * conversations' lockConversationState (the request for a person, the reopening of a closed
 * conversation, the visitor's close, the operators' assign, release, close and reply). FOR KEY SHARE
 * blocks only erasure, and erasure blocks it: the visitor's other writes and init's upsert of the
 * visitor (FOR NO KEY UPDATE) go on side by side, and a lock the transaction holds already is not
 * queued for again by its later foreign-key checks.
 *
 * A statement that locks one conversation's row once and waits on nothing after it cannot close a
 * circle and takes no visitor lock: the visitor's message and the bot's reply (one statement each,
 * message-repository.ts), the page of a message, an operator's read mark. (The visitor's message
 * that finds its conversation closed meanwhile has locked it already when it reopens it: that one
 * transaction is run again when Postgres ends it as a deadlock, receive-visitor-message.ts.) Init upserts
 * the visitor, then resumes or inserts the conversation: the same order. The retention purge never
 * waits for a visitor (SKIP LOCKED).
 *
 * When the visitor or the conversation is gone (erased, purged) by the time the lock is granted,
 * nothing is written and the session has ended: sessionEnded(), 401.
 */

/**
 * A CTE body selecting the visitor of `conversation` (a parameter of the statement, `$3`), their
 * row locked FOR KEY SHARE; no row when either is gone. Used by the one-statement writes
 * (`WITH session_visitor AS (…) UPDATE … FROM session_visitor`, `INSERT … SELECT … FROM
 * session_visitor`): the statement reads the conversation's row here but locks it, or any row that
 * refers to it, only once the visitor's row is locked.
 */
export const lockedVisitorOf = (conversation: string): string =>
  `SELECT v.id FROM conversations c JOIN visitors v ON v.id = c.visitor_id WHERE c.id = ${conversation}::text FOR KEY SHARE OF v`;

/** Locks the visitor of the conversation FOR KEY SHARE, first in a transaction that writes their data; false when the visitor or the conversation is gone. */
export async function lockSessionVisitor(tx: Queryable, conversationId: string): Promise<boolean> {
  const { rows } = await tx.query(lockedVisitorOf("$1"), [conversationId]);
  return rows.length > 0;
}

/** What a write answers when its conversation or visitor was erased or purged under it: the session has ended, as for any later request. */
export const sessionEnded = (): AppError => new AppError("invalid_token", "This conversation no longer exists. Start a new one.");
