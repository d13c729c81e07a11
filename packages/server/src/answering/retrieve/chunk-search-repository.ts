import type { Database } from "../../db/database.js";
import { vectorLiteral } from "../../db/vector-literal.js";

/** Dimensions that have an HNSW index (see migration 0002); other sizes are searched exactly. */
const INDEXED_DIMENSIONS = 384;

export interface RankedChunk {
  chunkId: number;
  score: number;
}


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

export interface TextRankedChunk extends RankedChunk {
  /** Share of the question's weight (Σ IDF of its terms) that this chunk contains. */
  coverage: number;
}

export interface TextSearch {
  chunks: TextRankedChunk[];
  /** Share of the question's weight carried by words the agent's knowledge never uses (1 when none match). */
  unknownShare: number;
}

const BM25_K1 = 1.2;
const BM25_B = 0.75;
/** Matches in the title (weight A) and heading (weight B) count this many times over. */
const TITLE_BOOST = 2;

/**
 * Okapi BM25 over one agent's chunks, computed in SQL from the full-text vectors: IDF from the
 * agent's own chunks (so a rare word like "phone" outweighs a common one like "number"), term
 * frequency from lexeme positions. Any query word may match (a question is not a boolean query).
 */
export async function searchByText(
  db: Database,
  query: { agentId: string; embedder: string; text: string; textSearchConfig: string; limit: number },
): Promise<TextSearch> {
  const { rows } = await db.query<{ id: number; score: number; coverage: number; unknown_share: number }>(
    `WITH terms AS (
       SELECT DISTINCT lexeme FROM unnest(to_tsvector($3::regconfig, $2))
     ),
     corpus AS (
       SELECT count(*)::float8 AS n, coalesce(avg(length(search_vector)), 1)::float8 AS avgdl
       FROM chunks WHERE agent_id = $1 AND embedder = $4
     ),
     weights AS (
       SELECT t.lexeme, df.n AS df,
         ln(1 + (corpus.n - df.n + 0.5) / (df.n + 0.5)) AS idf
       FROM terms t CROSS JOIN corpus
       CROSS JOIN LATERAL (
         SELECT count(*)::float8 AS n FROM chunks c
         WHERE c.agent_id = $1 AND c.embedder = $4 AND c.search_vector @@ quote_literal(t.lexeme)::tsquery
       ) df
     ),
     total AS (SELECT coalesce(sum(idf), 0) AS idf, coalesce(sum(idf) FILTER (WHERE df = 0), 0) AS unknown FROM weights),
     candidates AS (
       SELECT c.id, c.search_vector FROM chunks c
       WHERE c.agent_id = $1 AND c.embedder = $4
         AND c.search_vector @@ (SELECT to_tsquery('simple', string_agg(quote_literal(lexeme), ' | ')) FROM terms)
       LIMIT 2000
     )
     SELECT cand.id::int AS id,
       sum(w.idf * (tf.n * ($6::float8 + 1)) / (tf.n + $6::float8 * (1 - $7::float8 + $7::float8 * length(cand.search_vector) / corpus.avgdl))) AS score,
       CASE WHEN total.idf > 0 THEN sum(w.idf) / total.idf ELSE 0 END AS coverage,
       CASE WHEN total.idf > 0 THEN total.unknown / total.idf ELSE 1 END AS unknown_share
     FROM candidates cand
     CROSS JOIN corpus CROSS JOIN total
     CROSS JOIN LATERAL unnest(cand.search_vector) AS u(lexeme, positions, labels)
     JOIN weights w ON w.lexeme = u.lexeme
     CROSS JOIN LATERAL (
       SELECT (cardinality(u.positions) + $8::float8 * cardinality(array_remove(array_remove(u.labels, 'C'), 'D')))::float8 AS n
     ) tf
     GROUP BY cand.id, total.idf, total.unknown
     ORDER BY score DESC, cand.id
     LIMIT $5`,
    [query.agentId, query.text, query.textSearchConfig, query.embedder, query.limit, BM25_K1, BM25_B, TITLE_BOOST],
  );
  return {
    chunks: rows.map((row) => ({ chunkId: row.id, score: Number(row.score), coverage: Number(row.coverage) })),
    unknownShare: rows[0] ? Number(rows[0].unknown_share) : 1,
  };
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
