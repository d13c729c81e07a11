import type { Database } from "../../db/database.js";

/** Dimensions that have an HNSW index (see migration 0002); other sizes are searched exactly. */
const INDEXED_DIMENSIONS = 384;

export interface RankedChunk {
  chunkId: number;
  score: number;
}

const vectorLiteral = (vector: Float32Array) => `[${Array.from(vector).join(",")}]`;

/**
 * Nearest chunks of one agent by cosine distance, among vectors of one embedder only. The HNSW
 * scan iterates until it has `limit` rows of this agent (pgvector iterative index scans).
 */
export async function searchByVector(
  db: Database,
  query: { agentId: string; embedder: string; vector: Float32Array; limit: number },
): Promise<RankedChunk[]> {
  const dimensions = query.vector.length;
  const cast = dimensions === INDEXED_DIMENSIONS ? `::vector(${INDEXED_DIMENSIONS})` : "::vector";
  return db.transaction(async (tx) => {
    await tx.query(`SET LOCAL hnsw.iterative_scan = strict_order`);
    await tx.query(`SET LOCAL hnsw.ef_search = 100`);
    const { rows } = await tx.query<{ id: number; similarity: number }>(
      `SELECT id::int AS id, 1 - ((embedding${cast}) <=> $2${cast}) AS similarity
       FROM chunks
       WHERE agent_id = $1 AND embedder = $3 AND dimensions = $4
       ORDER BY (embedding${cast}) <=> $2${cast}
       LIMIT $5`,
      [query.agentId, vectorLiteral(query.vector), query.embedder, dimensions, query.limit],
    );
    return rows.map((row) => ({ chunkId: row.id, score: Number(row.similarity) }));
  });
}

/**
 * Best full-text matches of one agent's chunks (any query word may match: the visitor's
 * question is not a boolean query), ranked by ts_rank_cd, title and heading weighted up.
 */
export async function searchByText(
  db: Database,
  query: { agentId: string; embedder: string; text: string; textSearchConfig: string; limit: number },
): Promise<RankedChunk[]> {
  const { rows } = await db.query<{ id: number; rank: number }>(
    `WITH q AS (
       SELECT to_tsquery($3::regconfig, replace(plainto_tsquery($3::regconfig, $2)::text, ' & ', ' | ')) AS query
     )
     SELECT c.id::int AS id, ts_rank_cd(c.search_vector, q.query, 1) AS rank
     FROM chunks c, q
     WHERE c.agent_id = $1 AND c.embedder = $4 AND numnode(q.query) > 0 AND c.search_vector @@ q.query
     ORDER BY rank DESC, c.id
     LIMIT $5`,
    [query.agentId, query.text, query.textSearchConfig, query.embedder, query.limit],
  );
  return rows.map((row) => ({ chunkId: row.id, score: Number(row.rank) }));
}

export interface ChunkPassage {
  chunkId: number;
  documentId: number;
  url: string;
  title: string;
  heading: string | null;
  content: string;
}

/** The text and document of each chunk, scoped to the agent again (defence in depth). */
export async function loadChunkPassages(db: Database, agentId: string, chunkIds: number[]): Promise<Map<number, ChunkPassage>> {
  if (chunkIds.length === 0) return new Map();
  const { rows } = await db.query<{ id: number; document_id: number; url: string; title: string; heading: string | null; content: string; document_title: string | null }>(
    `SELECT c.id::int AS id, c.document_id::int AS document_id, d.url, c.title, c.heading, c.content, d.title AS document_title
     FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE c.agent_id = $1 AND c.id = ANY (SELECT (jsonb_array_elements_text($2::jsonb))::bigint)`,
    [agentId, JSON.stringify(chunkIds)],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      { chunkId: row.id, documentId: row.document_id, url: row.url, title: row.title || row.document_title || "", heading: row.heading, content: row.content },
    ]),
  );
}
