import type { Migration } from "./migration.js";

/**
 * The conversation's state machine (see src/conversations/): `bot` (the bot answers),
 * `awaiting_human` (a person was asked for; the bot is quiet), `human` (an operator took it over:
 * the assignee), `closed`. `status` replaces `bot_paused`: conversations with a human request
 * become `awaiting_human`, the others `bot`. An operator's removal leaves their conversations
 * without an assignee (any operator may then take them). Operator messages keep their author, and
 * the author's name as it was when they wrote (the visitor still sees it after a removal).
 * Indexes: the console's list reads a workspace's conversations by last activity, optionally of
 * one status or one assignee.
 */
export const conversationStates: Migration = {
  name: "0007-conversation-states",
  statements: [
    `ALTER TABLE conversations ADD COLUMN status text NOT NULL DEFAULT 'bot'
       CHECK (status IN ('bot', 'awaiting_human', 'human', 'closed'))`,
    `ALTER TABLE conversations ADD COLUMN assignee_operator_id text REFERENCES operators (id) ON DELETE SET NULL`,
    `ALTER TABLE conversations ADD COLUMN assigned_at timestamptz`,
    `ALTER TABLE conversations ADD COLUMN closed_at timestamptz`,
    `ALTER TABLE conversations ADD COLUMN closed_by text CHECK (closed_by IN ('operator', 'visitor'))`,
    `UPDATE conversations SET status = 'awaiting_human' WHERE bot_paused OR human_requested_at IS NOT NULL`,
    `ALTER TABLE conversations DROP COLUMN bot_paused`,
    `CREATE INDEX conversations_workspace_activity_idx ON conversations (workspace_id, last_activity_at DESC, id)`,
    `CREATE INDEX conversations_workspace_status_activity_idx ON conversations (workspace_id, status, last_activity_at DESC, id)`,
    `CREATE INDEX conversations_assignee_activity_idx ON conversations (assignee_operator_id, last_activity_at DESC, id)
       WHERE assignee_operator_id IS NOT NULL`,
    `ALTER TABLE messages ADD COLUMN operator_id text REFERENCES operators (id) ON DELETE SET NULL`,
    `ALTER TABLE messages ADD COLUMN author_name text`,
    `CREATE INDEX messages_operator_idx ON messages (operator_id) WHERE operator_id IS NOT NULL`,
  ],
};
