import type { Queryable } from "../db/database.js";
import { storedVector, unitVectorIntegers } from "../db/vector-literal.js";
import type { ChunkToStore, DocumentValidators } from "./document-repository.js";
import { bumpKnowledgeRevision } from "./knowledge-revision-repository.js";
import { vectorIndexedOf } from "./index-agent-vectors.js";

export interface DocumentChunks {
  id: number;
  title: string;
  contentHash: string;
  /** The extracted text and the size of what it was read from, shown to the owner. */
  text?: string;
  contentBytes?: number;
  /** The fetched answer's validators, stored with the chunks (a page's); kept as they were when not given. */
  validators?: DocumentValidators;
  chunks: ChunkToStore[];
}

const ROWS_PER_INSERT = 200;

/**
 * `replaceDocumentChunks` for many documents of one agent in a few statements (the caller's
 * transaction): every old chunk of them is deleted, the new ones inserted in batches, the documents
 * marked indexed, and the agent's knowledge revision moved last. For pushes that index many small
 * documents at once (WordPress posts), where one transaction per document costs more than the work,
 * and for one document of thousands of chunks (a large file), whose chunks as one parameter would
 * be held whole, several times over, by the store. Returns how many of the documents were written
 * (an excluded or deleted one is not).
 */
export async function replaceChunksOfDocuments(
  tx: Queryable,
  agentId: string,
  meta: { embedder: string; dimensions: number; textSearchConfig: string },
  given: readonly DocumentChunks[],
): Promise<number> {
  if (given.length === 0) return 0;
  // An excluded document gets no chunks (its owner left it out meanwhile); the lock orders this write after the exclusion's.
  const { rows: writable } = await tx.query<{ id: number }>(
    `SELECT id::int AS id FROM documents WHERE id IN (SELECT (jsonb_array_elements_text($1::jsonb))::bigint) AND status <> 'excluded' ORDER BY id FOR UPDATE`,
    [JSON.stringify(given.map((document) => document.id))],
  );
  const kept = new Set(writable.map((row) => row.id));
  const documents = given.filter((document) => kept.has(document.id));
  if (documents.length === 0) return 0;
  await tx.query(`DELETE FROM chunks WHERE document_id IN (SELECT (jsonb_array_elements_text($1::jsonb))::bigint)`, [JSON.stringify(documents.map((document) => document.id))]);
  const rows = documents.flatMap((document) => document.chunks.map((chunk) => ({ documentId: document.id, chunk })));
  const perRow = 10;
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    const params: (string | number | null)[] = [agentId, meta.embedder, meta.dimensions, meta.textSearchConfig];
    const values = rows.slice(start, start + ROWS_PER_INSERT).map(({ documentId, chunk }, i) => {
      const at = 5 + i * perRow;
      params.push(documentId, chunk.index, chunk.title, chunk.heading, chunk.content, chunk.tokenEstimate, unitVectorIntegers(chunk.embedding), chunk.heading ?? "", chunk.title, chunk.page ?? null);
      return `($${at}, $1, $${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $2, $3, ${storedVector(`$${at + 6}`)},
        setweight(to_tsvector($4::regconfig, $${at + 8}::text), 'A') || setweight(to_tsvector($4::regconfig, $${at + 7}::text), 'B')
          || to_tsvector($4::regconfig, $${at + 4}::text), ${vectorIndexedOf("$1")}, $${at + 9}::int)`;
    });
    await tx.query(
      `INSERT INTO chunks (document_id, agent_id, chunk_index, title, heading, content, token_estimate, embedder, dimensions, embedding, search_vector, vector_indexed, page)
       VALUES ${values.join(", ")}`,
      params,
    );
  }
  await tx.query(
    `UPDATE documents d SET status = 'indexed', title = v.title, content_hash = v.content_hash, error = NULL, chunk_count = v.chunk_count,
       indexed_at = now(), updated_at = now(), extracted_text = v.extracted_text, content_bytes = v.content_bytes,
       etag = CASE WHEN v.validated THEN v.etag ELSE d.etag END, last_modified = CASE WHEN v.validated THEN v.last_modified ELSE d.last_modified END
     FROM jsonb_to_recordset($1::jsonb) AS v (id bigint, title text, content_hash text, chunk_count int, extracted_text text, content_bytes int,
       validated boolean, etag text, last_modified text)
     WHERE d.id = v.id`,
    [
      JSON.stringify(
        documents.map((document) => ({
          id: document.id,
          title: document.title,
          content_hash: document.contentHash,
          chunk_count: document.chunks.length,
          extracted_text: document.text ?? null,
          content_bytes: document.contentBytes ?? null,
          validated: document.validators !== undefined,
          etag: document.validators?.etag ?? null,
          last_modified: document.validators?.lastModified ?? null,
        })),
      ),
    ],
  );
  await bumpKnowledgeRevision(tx, agentId);
  return documents.length;
}

/** Documents read again whose text and embedder are unchanged: indexed, nothing re-embedded. */
export async function markDocumentsUnchanged(tx: Queryable, documentIds: readonly number[]): Promise<void> {
  if (documentIds.length === 0) return;
  await tx.query(
    `UPDATE documents SET status = 'indexed', error = NULL, indexed_at = now(), updated_at = now()
     WHERE id IN (SELECT (jsonb_array_elements_text($1::jsonb))::bigint) AND status <> 'excluded'`,
    [JSON.stringify(documentIds)],
  );
}
