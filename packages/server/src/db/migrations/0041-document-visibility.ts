import type { Migration } from "./migration.js";

/**
 * What was indexed, visible (issue 32 §3). A page can be `excluded` by its owner: its chunks are
 * deleted and re-syncs skip it until it is included again. Each document keeps the text its last
 * indexing extracted (`extracted_text`, TOAST-compressed like any long text) and the size of the
 * content it was read from (`content_bytes`), so the console shows what the agent learned from it.
 *
 * `documents_source_order_idx` pages a source's documents in id order (the listing's keyset)
 * without sorting them; reads of one document's chunks in order use `chunks_document_idx` (0002).
 */
export const documentVisibility: Migration = {
  name: "0041-document-visibility",
  statements: [
    `ALTER TABLE documents DROP CONSTRAINT documents_status_check`,
    `ALTER TABLE documents ADD CONSTRAINT documents_status_check CHECK (status IN ('pending', 'indexed', 'failed', 'excluded'))`,
    `ALTER TABLE documents ADD COLUMN extracted_text text`,
    `ALTER TABLE documents ADD COLUMN content_bytes integer`,
    `CREATE INDEX documents_source_order_idx ON documents (source_id, id)`,
  ],
};
