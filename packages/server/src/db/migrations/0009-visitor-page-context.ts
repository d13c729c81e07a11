import type { Migration } from "./migration.js";

/**
 * The visitor's page context (`page_context` of the latest message: the page's title, meta
 * description, canonical URL, a schema.org Product, what the page added with
 * `Frontdesk.setContext`), kept on the conversation beside `last_page_url` so an operator who
 * takes the conversation over sees what the visitor was looking at.
 */
export const visitorPageContext: Migration = {
  name: "0009-visitor-page-context",
  statements: [`ALTER TABLE conversations ADD COLUMN last_page_context jsonb`],
};
