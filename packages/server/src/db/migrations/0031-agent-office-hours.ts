import type { Migration } from "./migration.js";

/**
 * Office hours, away message and reply time per agent (issue 30, item 4). `office_hours` is
 * `{time_zone, days: {mon: [{open, close}], …}}` as contracts/office-hours.ts validates it; null
 * is always open, the state of every agent before this migration. The reply time is one of three
 * words (Intercom's), null when the widget shows none.
 */
export const agentOfficeHours: Migration = {
  name: "0031-agent-office-hours",
  statements: [
    `ALTER TABLE agents ADD COLUMN office_hours jsonb`,
    `ALTER TABLE agents ADD COLUMN away_message text`,
    `ALTER TABLE agents ADD COLUMN reply_time text CHECK (reply_time IN ('minutes', 'hours', 'day'))`,
  ],
};
