import type { Migration } from "./migration.js";

/**
 * What the visitor has seen of their conversation (issue 30): the highest message seq the widget
 * fetched or acknowledged. An operator's reply above it, still there after
 * FRONTDESK_EMAIL_UNSEEN_DELAY_SECONDS, is e-mailed to a visitor who left an address. A constant
 * default: no table rewrite on Postgres.
 */
export const visitorSeenSeq: Migration = {
  name: "0033-visitor-seen-seq",
  statements: [`ALTER TABLE conversations ADD COLUMN visitor_seen_seq bigint NOT NULL DEFAULT 0`],
};
