import type { Migration } from "./migration.js";

/**
 * An operator may be away while their console stays open (issue 33's follow-up): `away_since` is
 * when they said so, null when available. Away operators count as offline for routing, for the
 * "someone is online" the widget shows, and for the alerts sent when nobody is. Read by primary key
 * and within a workspace's presence members (`operators` by id): no new query path.
 */
export const operatorAway: Migration = {
  name: "0050-operator-away",
  statements: [`ALTER TABLE operators ADD COLUMN away_since timestamptz`],
};
