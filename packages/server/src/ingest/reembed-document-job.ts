import { storedVector, unitVectorIntegers } from "../db/vector-literal.js";
import { chunkEmbeddingText } from "./chunk/chunk-embedding-text.js";
import { bumpKnowledgeRevision } from "./knowledge-revision-repository.js";
import type { IngestJobContext } from "./ingest-job-context.js";
import { embedMeasured } from "./measured-embedding.js";

/** Job `reembed-document`: replaces the vectors of a document made by another embedder, from the stored chunk text. */
export async function runReembedDocumentJob(context: IngestJobContext, documentId: number): Promise<void> {
  const { db, pipeline } = context;
  const embedder = pipeline.embedder;
  const { rows } = await db.query<{ id: number; agentId: string; title: string; heading: string | null; content: string; embedder: string }>(
    `SELECT id::int AS id, agent_id AS "agentId", title, heading, content, embedder FROM chunks WHERE document_id = $1 ORDER BY chunk_index`,
    [documentId],
  );
  if (rows.length === 0 || rows.every((row) => row.embedder === embedder.id)) return;
  const vectors = await embedMeasured(pipeline, rows.map((row) => chunkEmbeddingText({ title: row.title, heading: row.heading, text: row.content })));
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
  context.onKnowledgeChanged?.(rows[0]!.agentId);
  context.logger.info({ documentId, chunks: rows.length, embedder: embedder.id }, "document re-embedded");
}
