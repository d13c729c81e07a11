import type { Database } from "../../db/database.js";
import { vectorLiteral } from "../../db/vector-literal.js";
import type { LexemeStatistics } from "./lexeme-statistics.js";

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
  const { rows } = await db.query<{ id: number; similarity: number }>(
      `SELECT id::int AS id, 1 - ((embedding${cast}) <=> $2${cast}) AS similarity
       FROM chunks
       WHERE agent_id = $1 AND embedder = $3 AND dimensions = $4
       ORDER BY (embedding${cast}) <=> $2${cast}
       LIMIT $5`,
      [query.agentId, vectorLiteral(query.vector), query.embedder, dimensions, query.limit],
  );
  return rows.map((row) => ({ chunkId: row.id, score: Number(row.similarity) }));
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
/** Chunks scored by BM25: the best of the full-text matches by ts_rank. */
const BM25_CANDIDATES = 300;
/** Candidates are chosen by the rarest words (they still all score): at most this many… */
const SELECTIVE_TERMS = 4;
/** …and none in more than this share of the chunks, beyond the two rarest. */
const SELECTIVE_SHARE = 0.2;

/** The question's lexemes, as the agent's text-search configuration makes them. */
async function queryLexemes(db: Database, text: string, textSearchConfig: string): Promise<string[]> {
  const { rows } = await db.query<{ lexeme: string }>(`SELECT DISTINCT lexeme FROM unnest(to_tsvector($1::regconfig, $2))`, [
    textSearchConfig,
    text,
  ]);
  return rows.map((row) => row.lexeme);
}

/**
 * Okapi BM25 over one agent's chunks: IDF from the agent's own chunks (cached lexeme statistics,
 * so a rare word like "phone" outweighs a common one like "number"), term frequency from lexeme
 * positions, title and heading matches boosted. Any query word may match (a question is not a
 * boolean query); the selective words pick candidates by ts_rank, then BM25 orders them.
 */
export async function searchByText(
  db: Database,
  statistics: LexemeStatistics,
  query: { agentId: string; embedder: string; text: string; textSearchConfig: string; limit: number },
): Promise<TextSearch> {
  const lexemes = await queryLexemes(db, query.text, query.textSearchConfig);
  const corpus = await statistics.get(db, query.agentId, query.embedder);
  if (lexemes.length === 0 || corpus.chunkCount === 0) return { chunks: [], unknownShare: 1 };
  const terms = lexemes.map((lexeme) => {
    const df = corpus.documentFrequency.get(lexeme) ?? 0;
    return { lexeme, df, idf: Math.log(1 + (corpus.chunkCount - df + 0.5) / (df + 0.5)) };
  });
  const totalIdf = terms.reduce((sum, term) => sum + term.idf, 0);
  const unknownShare = terms.filter((term) => term.df === 0).reduce((sum, term) => sum + term.idf, 0) / totalIdf;
  const known = terms.filter((term) => term.df > 0).sort((a, b) => b.idf - a.idf);
  if (known.length === 0) return { chunks: [], unknownShare };
  const selective = known.filter((term, index) => index < 2 || term.df / corpus.chunkCount <= SELECTIVE_SHARE).slice(0, SELECTIVE_TERMS);
  const selector = selective.map((term) => `'${term.lexeme.replaceAll("'", "''")}'`).join(" | ");

  const { rows } = await db.query<{ id: number; score: number; matched_idf: number }>(
    `WITH weights AS (
       SELECT key AS lexeme, value::float8 AS idf FROM jsonb_each_text($3::jsonb)
     ),
     candidates AS (
       SELECT c.id, c.search_vector FROM chunks c
       WHERE c.agent_id = $1 AND c.embedder = $2 AND c.search_vector @@ to_tsquery('simple', $4)
       ORDER BY ts_rank(c.search_vector, to_tsquery('simple', $4)) DESC, c.id
       LIMIT $5
     )
     SELECT cand.id::int AS id,
       sum(w.idf * (tf.n * ($7::float8 + 1)) / (tf.n + $7::float8 * (1 - $8::float8 + $8::float8 * length(cand.search_vector) / $9::float8))) AS score,
       sum(w.idf) AS matched_idf
     FROM candidates cand
     CROSS JOIN LATERAL unnest(cand.search_vector) AS u(lexeme, positions, labels)
     JOIN weights w ON w.lexeme = u.lexeme
     CROSS JOIN LATERAL (
       SELECT (cardinality(u.positions) + $10::float8 * cardinality(array_remove(array_remove(u.labels, 'C'), 'D')))::float8 AS n
     ) tf
     GROUP BY cand.id
     ORDER BY score DESC, cand.id
     LIMIT $6`,
    [
      query.agentId,
      query.embedder,
      JSON.stringify(Object.fromEntries(known.map((term) => [term.lexeme, term.idf]))),
      selector,
      BM25_CANDIDATES,
      query.limit,
      BM25_K1,
      BM25_B,
      corpus.averageLength,
      TITLE_BOOST,
    ],
  );
  return {
    chunks: rows.map((row) => ({ chunkId: row.id, score: Number(row.score), coverage: Number(row.matched_idf) / totalIdf })),
    unknownShare,
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
