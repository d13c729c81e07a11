import type { Migration } from "./migration.js";

/**
 * A sitemap's pending pages, found without counting its others (issue 15). Every page job of a
 * sitemap asks whether a page of it is still pending (the last one settles the source); its full
 * counts are written at most every 250 ms. Counting all of a source's documents after each page made
 * a sitemap's indexing quadratic in its size.
 */
export const pendingDocuments: Migration = {
  name: "0023-pending-documents",
  statements: [`CREATE INDEX documents_pending_idx ON documents (source_id) WHERE status = 'pending'`],
};
