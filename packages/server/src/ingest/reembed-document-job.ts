import type { Database } from "../db/database.js";
import { storedVector, unitVectorIntegers } from "../db/vector-literal.js";
import { chunkEmbeddingText } from "./chunk/chunk-embedding-text.js";
import { bumpKnowledgeRevision } from "./knowledge-revision-repository.js";
import type { IngestJobContext } from "./ingest-job-context.js";
import type { IngestPipeline } from "./ingest-pipeline.js";
import { embedMeasured } from "./measured-embedding.js";

export interface ReembeddedDocument {
  agentId: string;
  chunks: number;
  embedder: string;
}

/**
 * Gives every position of a document that has no vector of its workspace's active embedder one,
 * in place, from the stored chunk text (one chunk per position; others of the position stay for
 * their own generation, or for the retiring of their embedder to delete). Null when nothing was to do.
 */
export async function reembedDocument(db: Database, pipeline: IngestPipeline, documentId: number): Promise<ReembeddedDocument | null> {
  const { rows: owner } = await db.query<{ workspaceId: string }>(`SELECT workspace_id AS "workspaceId" FROM documents WHERE id = $1`, [documentId]);
  if (owner[0] === undefined) return null;
  const embedder = await pipeline.embedders.active(owner[0].workspaceId);
  const { rows } = await db.query<{ id: number; agentId: string; title: string; heading: string | null; content: string }>(
    `SELECT DISTINCT ON (c.chunk_index) c.id::int AS id, c.agent_id AS "agentId", c.title, c.heading, c.content FROM chunks c
     WHERE c.document_id = $1 AND c.embedder <> $2
       AND NOT EXISTS (SELECT 1 FROM chunks n WHERE n.document_id = c.document_id AND n.embedder = $2 AND n.chunk_index = c.chunk_index)
     ORDER BY c.chunk_index`,
    [documentId, embedder.id],
  );
  if (rows.length === 0) return null;
  const vectors = await embedMeasured(pipeline, embedder, rows.map((row) => chunkEmbeddingText({ title: row.title, heading: row.heading, text: row.content })));
  await db.transaction(async (tx) => {
    for (const [i, row] of rows.entries()) {
      await tx.query(`UPDATE chunks SET embedding = ${storedVector("$2")}, embedder = $3, dimensions = $4 WHERE id = $1`, [
        row.id,
        unitVectorIntegers(vectors[i]!),
        embedder.id,
        embedder.dimensions,
      ]);
    }
    await bumpKnowledgeRevision(tx, rows[0]!.agentId);
  });
  return { agentId: rows[0]!.agentId, chunks: rows.length, embedder: embedder.id };
}

/** Job `reembed-document`: the document's vectors made by another embedder are replaced by its workspace's active one's. */
export async function runReembedDocumentJob(context: IngestJobContext, documentId: number): Promise<void> {
  const done = await reembedDocument(context.db, context.pipeline, documentId);
  if (done === null) return;
  context.onKnowledgeChanged?.(done.agentId);
  context.logger.info({ documentId, chunks: done.chunks, embedder: done.embedder }, "document re-embedded");
}
