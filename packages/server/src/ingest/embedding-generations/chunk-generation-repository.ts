import type { Queryable } from "../../db/database.js";
import { storedVector, unitVectorIntegers } from "../../db/vector-literal.js";
import { vectorIndexedOf } from "../index-agent-vectors.js";
import { upsertRevisionsOf } from "../knowledge-revision-repository.js";

/** A chunk of the workspace that has no vector of the target embedder yet. */
export interface ChunkToCopy {
  id: number;
  title: string;
  heading: string | null;
  content: string;
}

/**
 * Up to `limit` chunks of the workspace (its documents, `documents_workspace_idx`) whose position
 * in their document has no chunk of `embedderId` yet (`chunks_document_embedder_idx`), one per
 * position: what a re-embedding still has to do. Documents indexed during it are found here too.
 */
export async function listChunksToCopy(db: Queryable, workspaceId: string, embedderId: string, limit: number): Promise<ChunkToCopy[]> {
  const { rows } = await db.query<ChunkToCopy>(
    `SELECT DISTINCT ON (c.document_id, c.chunk_index) c.id::int AS id, c.title, c.heading, c.content
     FROM documents d JOIN chunks c ON c.document_id = d.id
     WHERE d.workspace_id = $1 AND c.embedder <> $2
       AND NOT EXISTS (SELECT 1 FROM chunks n WHERE n.document_id = c.document_id AND n.embedder = $2 AND n.chunk_index = c.chunk_index)
     ORDER BY c.document_id, c.chunk_index
     LIMIT $3`,
    [workspaceId, embedderId, limit],
  );
  return rows;
}

/** How many chunks of the embedder the workspace's documents hold (a re-embedding's total). */
export async function countWorkspaceChunks(db: Queryable, workspaceId: string, embedderId: string): Promise<number> {
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM documents d JOIN chunks c ON c.document_id = d.id AND c.embedder = $2 WHERE d.workspace_id = $1`,
    [workspaceId, embedderId],
  );
  return rows[0]?.count ?? 0;
}

/**
 * Writes each listed chunk again beside itself with the target embedder's vector (same document,
 * position, text and search vector), unless that position got one meanwhile or the chunk is gone
 * (its document was indexed again: the new chunks are listed next time). Returns how many.
 * Answers do not see them until the generation is switched, so no knowledge revision moves.
 */
export async function insertChunkCopies(
  tx: Queryable,
  target: { embedderId: string; dimensions: number },
  copies: readonly { id: number; embedding: Float32Array }[],
): Promise<number> {
  if (copies.length === 0) return 0;
  const { rows } = await tx.query<{ copied: number }>(
    `WITH copied AS (
       INSERT INTO chunks (document_id, agent_id, chunk_index, title, heading, content, token_estimate, embedder, dimensions, embedding, search_vector, vector_indexed)
       SELECT c.document_id, c.agent_id, c.chunk_index, c.title, c.heading, c.content, c.token_estimate, $1, $2, ${storedVector("v.embedding")}, c.search_vector,
         ${vectorIndexedOf("c.agent_id")}
       FROM jsonb_to_recordset($3::jsonb) AS v (id bigint, embedding text) JOIN chunks c ON c.id = v.id
       WHERE NOT EXISTS (SELECT 1 FROM chunks n WHERE n.document_id = c.document_id AND n.embedder = $1 AND n.chunk_index = c.chunk_index)
       RETURNING 1
     )
     SELECT count(*)::int AS copied FROM copied`,
    [target.embedderId, target.dimensions, JSON.stringify(copies.map((copy) => ({ id: copy.id, embedding: unitVectorIntegers(copy.embedding) })))],
  );
  return rows[0]?.copied ?? 0;
}

/** The agents whose documents the workspace holds (their knowledge revisions move at a switch). */
export async function bumpWorkspaceKnowledge(tx: Queryable, workspaceId: string): Promise<string[]> {
  const { rows } = await tx.query<{ agent_id: string }>(
    `WITH agents_of AS (SELECT DISTINCT agent_id FROM documents WHERE workspace_id = $1), bumped AS (${upsertRevisionsOf("SELECT agent_id FROM agents_of")})
     SELECT agent_id FROM agents_of`,
    [workspaceId],
  );
  return rows.map((row) => row.agent_id);
}

/**
 * The workspace's documents whose only vectors are of `embedderId` (written with it while the
 * switch happened): they are re-embedded before those vectors go.
 */
export async function listDocumentsOnlyOf(db: Queryable, workspaceId: string, embedderId: string): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT d.id::int AS id FROM documents d
     WHERE d.workspace_id = $1
       AND EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id AND c.embedder = $2)
       AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.document_id = d.id AND c.embedder <> $2)
     ORDER BY d.id`,
    [workspaceId, embedderId],
  );
  return rows.map((row) => row.id);
}

/**
 * Deletes up to `limit` of the workspace's chunks of `embedderId` whose document has vectors of
 * another embedder (never a document's last ones); returns how many, the agents' revisions moved.
 */
export async function deleteRetiredChunks(tx: Queryable, workspaceId: string, embedderId: string, limit: number): Promise<number> {
  const { rows } = await tx.query<{ removed: number }>(
    `WITH removed AS (
       DELETE FROM chunks WHERE id IN (
         SELECT c.id FROM documents d JOIN chunks c ON c.document_id = d.id AND c.embedder = $2
         WHERE d.workspace_id = $1 AND EXISTS (SELECT 1 FROM chunks o WHERE o.document_id = d.id AND o.embedder <> $2)
         LIMIT $3
       )
       RETURNING agent_id
     ), bumped AS (${upsertRevisionsOf("SELECT agent_id FROM removed")})
     SELECT count(*)::int AS removed FROM removed`,
    [workspaceId, embedderId, limit],
  );
  return rows[0]?.removed ?? 0;
}
