import type { Migration } from "./migration.js";

/**
 * Init counts the new conversations of many visitors in one statement (issue 15: one counter
 * update per batch instead of one per conversation, so a busy workspace does not queue on its
 * counter row's lock). `conversation_counters.last_granted` is how many of the conversations the
 * last statement asked for it counted (all of them, or what was left of the monthly quota):
 * returned by the upsert that adds them, it says how many of the batch's conversations to insert.
 * The count itself stays exact (never above the quota).
 */
export const conversationCounterGrants: Migration = {
  name: "0021-conversation-counter-grants",
  statements: [`ALTER TABLE conversation_counters ADD COLUMN last_granted integer NOT NULL DEFAULT 0`],
};
