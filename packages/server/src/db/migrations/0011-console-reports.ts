import type { Migration } from "./migration.js";

/**
 * What the console's leads, analytics and settings read:
 * - Leads, newest first, of the workspace or of one agent (`created_at DESC, id DESC`, keyset
 *   pagination and the CSV export); the agent's index also serves the analytics funnel's last step.
 * - Analytics reads an agent's conversations by creation time, and its widget events by name and
 *   time (the funnel's `launcher.open`).
 * - `handed_to_human_at`: when a person first took part in the conversation (the first request for
 *   one, or an operator's takeover without a request). `human_requested_at` is cleared when the
 *   conversation goes back to the bot or is closed, so analytics could not count handovers from
 *   it. A trigger keeps it whichever code path changes the state, and never moves it once set.
 *   Conversations stored before this migration get the time of their first "Waiting for a person
 *   to join" system message, else their pending request, else their assignment.
 */
export const consoleReports: Migration = {
  name: "0011-console-reports",
  statements: [
    `CREATE INDEX leads_workspace_created_idx ON leads (workspace_id, created_at DESC, id DESC)`,
    `CREATE INDEX leads_agent_created_idx ON leads (agent_id, created_at DESC, id DESC)`,
    `CREATE INDEX conversations_agent_created_idx ON conversations (agent_id, created_at)`,
    `CREATE INDEX events_agent_event_created_idx ON events (agent_id, event, created_at)`,
    `ALTER TABLE conversations ADD COLUMN handed_to_human_at timestamptz`,
    `UPDATE conversations c SET handed_to_human_at = COALESCE(
       (SELECT min(m.created_at) FROM messages m
         WHERE m.conversation_id = c.id AND m.role = 'system' AND m.content = 'Waiting for a person to join'),
       (SELECT min(m.created_at) FROM messages m WHERE m.conversation_id = c.id AND m.role = 'operator'),
       c.human_requested_at,
       c.assigned_at)`,
    `CREATE FUNCTION conversations_mark_handed_to_human() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF NEW.handed_to_human_at IS NULL AND (NEW.human_requested_at IS NOT NULL OR NEW.assignee_operator_id IS NOT NULL) THEN
         NEW.handed_to_human_at := COALESCE(NEW.human_requested_at, now());
       END IF;
       RETURN NEW;
     END
     $$`,
    `CREATE TRIGGER conversations_handed_to_human BEFORE INSERT OR UPDATE OF human_requested_at, assignee_operator_id ON conversations
       FOR EACH ROW EXECUTE FUNCTION conversations_mark_handed_to_human()`,
  ],
};
