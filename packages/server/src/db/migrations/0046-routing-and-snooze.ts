import type { Migration } from "./migration.js";

/**
 * Routing and snooze (issue 33, part 6). An agent's `routing` says how its new human requests
 * find an operator: `manual` (every agent before this migration: all operators are alerted) or
 * `round_robin` among the operators online, only those of `routing_team` when it names any (ids
 * of the workspace's operators; one removed later is skipped). `routing_last_operator_id` is the
 * turn's pointer: the handoff locks the agent's row, picks the next operator online after it
 * and moves it, so concurrent handoffs, in any process, take turns.
 *
 * A conversation is snoozed while `snooze_id` is set: until `snoozed_until`, or (null) until the
 * visitor writes. The id names one snooze, so the wake-up job of an earlier one (unsnoozed,
 * snoozed again) finds another id and does nothing. Query paths: the inbox's snoozed view by
 * `conversations_workspace_snoozed_idx` (few rows: partial); its open view keeps the activity
 * index and filters; the wake-up by the primary key.
 */
export const routingAndSnooze: Migration = {
  name: "0046-routing-and-snooze",
  statements: [
    `ALTER TABLE agents ADD COLUMN routing text NOT NULL DEFAULT 'manual' CHECK (routing IN ('manual', 'round_robin'))`,
    `ALTER TABLE agents ADD COLUMN routing_team jsonb NOT NULL DEFAULT '[]'`,
    `ALTER TABLE agents ADD COLUMN routing_last_operator_id text`,
    `ALTER TABLE conversations ADD COLUMN snooze_id text`,
    `ALTER TABLE conversations ADD COLUMN snoozed_until timestamptz`,
    `CREATE INDEX conversations_workspace_snoozed_idx ON conversations (workspace_id, last_activity_at DESC, id) WHERE snooze_id IS NOT NULL`,
  ],
};
