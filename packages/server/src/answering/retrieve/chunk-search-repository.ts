import type { Database, Queryable, SqlValue } from "../../db/database.js";
import { textArray } from "../../db/text-array.js";
import { vectorLiteral } from "../../db/vector-literal.js";
import { ownVectorIndexPredicate } from "../../ingest/own-vector-index.js";
import { BM25 } from "./bm25-parameters.js";
import type { IndexedChunk } from "./lexical-index.js";
import { spellingVariantsOf } from "./spelling-variants.js";
import { closeTogetherQuery, QUESTION_PAIR_SPAN, type TermPair } from "./term-proximity.js";

/** Dimensions that have an HNSW index (see migrations 0002 and 0022); other sizes are searched exactly. */
const INDEXED_DIMENSIONS = 384;

export interface RankedChunk {
  chunkId: number;
  score: number;
}

/**
 * Nearest chunks of one agent by cosine distance, among vectors of one embedder only. The HNSW
 * index holds the chunks of agents that passed the index threshold (migration 0022), flagged
 * `vector_indexed`: its scan iterates until it has `limit` of them (pgvector iterative index
 * scans), and runs only for such an agent (the one-time filter on `vectors_indexed_at`). Every
 * other chunk of the agent is compared exactly. The best `limit` of both are the same as an
 * exact search's, up to what the HNSW graph misses. An agent with an index of its own
 * (`ownIndex`, migration 0051) is searched through it alone.
 */
export async function searchByVector(db: Database, query: VectorQuery): Promise<RankedChunk[]> {
  const { rows } = await db.query<{ id: number; similarity: number }>(vectorSearchSql(query), vectorSearchParameters(query));
  return rows.map(toRankedChunk);
}

export interface VectorQuery {
  agentId: string;
  embedder: string;
  vector: Float32Array;
  limit: number;
  /** The agent's vectors have an HNSW index of their own (OwnVectorIndexes). */
  ownIndex?: boolean;
}

/** searchByVector's statement: $1 the agent, $2 the vector, $3 the embedder, $4 its dimensions, $5 the limit; rows (id, similarity), nearest first. */
function vectorSearchSql(query: VectorQuery): string {
  const dimensions = query.vector.length;
  if (dimensions !== INDEXED_DIMENSIONS) {
    return `SELECT id::int AS id, 1 - (embedding <=> $2::vector) AS similarity
       FROM chunks
       WHERE agent_id = $1 AND embedder = $3 AND dimensions = $4
       ORDER BY embedding <=> $2::vector, id
       LIMIT $5`;
  }
  const distance = `(embedding::vector(${INDEXED_DIMENSIONS})) <=> $2::vector(${INDEXED_DIMENSIONS})`;
  if (query.ownIndex) {
    // The index's own predicate, written out (not a parameter), so that the planner can prove it
    // and scan the agent's index; the same statement text per agent. $1 and $4 repeat it only
    // because every parameter of the shared list must appear in the statement.
    return `SELECT id::int AS id, 1 - distance AS similarity FROM (
       SELECT id, ${distance} AS distance FROM chunks
       WHERE ${ownVectorIndexPredicate(query.agentId)} AND agent_id = $1 AND embedder = $3 AND dimensions = $4
       ORDER BY ${distance}
       LIMIT $5
     ) nearest
     ORDER BY distance, id`;
  }
  return `SELECT id::int AS id, 1 - distance AS similarity FROM (
       (SELECT id, ${distance} AS distance FROM chunks
        WHERE agent_id = $1 AND embedder = $3 AND dimensions = ${INDEXED_DIMENSIONS} AND vector_indexed
          AND (SELECT vectors_indexed_at IS NOT NULL FROM agents WHERE id = $1)
        ORDER BY ${distance}
        LIMIT $5)
       UNION ALL
       (SELECT id, ${distance} AS distance FROM chunks
        WHERE agent_id = $1 AND embedder = $3 AND dimensions = $4 AND NOT vector_indexed
        ORDER BY ${distance}, id
        LIMIT $5)
     ) nearest
     ORDER BY distance, id
     LIMIT $5`;
}

function vectorSearchParameters(query: VectorQuery): SqlValue[] {
  return [query.agentId, vectorLiteral(query.vector), query.embedder, query.vector.length, query.limit];
}

const toRankedChunk = (row: { id: number; similarity: number }): RankedChunk => ({ chunkId: row.id, score: Number(row.similarity) });

/** The question's lexemes, as the agent's text-search configuration makes them, and the agent's knowledge revision (which tells whether an in-memory index is current). */
export interface QuestionLexemes {
  lexemes: string[];
  revision: string;
  /** Lexemes of the question's words spelled otherwise in the other English ("honor" → "honour"), each as "lexeme variant". */
  spellings: string[];
  /** Pairs of the question's neighbouring lexemes (`QUESTION_PAIR_SPAN`), each as "lexeme lexeme", for the proximity term (term-proximity.ts). */
  pairs: string[];
}

/**
 * The statement part that reads QuestionLexemes: `config`, `text` and `agent` are its
 * placeholders, `words` and `variants` those of the question's words with another spelling and
 * that spelling (aligned `text[]`, see `spellingParameters`).
 */
function questionLexemesSql(config: string, text: string, agent: string, words: string, variants: string): string {
  return `SELECT ARRAY(SELECT DISTINCT lexeme FROM unnest(asked.vector)) AS lexemes,
       coalesce((SELECT revision FROM knowledge_revisions WHERE agent_id = ${agent}), 0)::text AS revision,
       ARRAY(SELECT DISTINCT own.lexeme || ' ' || other.lexeme
             FROM unnest(${words}::text[], ${variants}::text[]) AS pair (word, variant),
                  LATERAL unnest(to_tsvector(${config}::regconfig, pair.word)) own,
                  LATERAL unnest(to_tsvector(${config}::regconfig, pair.variant)) other
             WHERE own.lexeme <> other.lexeme) AS spellings,
       ARRAY(SELECT DISTINCT least(a.lexeme, b.lexeme) || ' ' || greatest(a.lexeme, b.lexeme)
             FROM (SELECT lexeme, unnest(positions) AS position FROM unnest(asked.vector)) a
             JOIN (SELECT lexeme, unnest(positions) AS position FROM unnest(asked.vector)) b
               ON b.position > a.position AND b.position <= a.position + ${QUESTION_PAIR_SPAN} AND b.lexeme <> a.lexeme) AS pairs
     FROM (SELECT to_tsvector(${config}::regconfig, ${text}) AS vector) asked`;
}

/** The question's words with another spelling and those spellings, for an English configuration only (the lists are English). */
function spellingParameters(text: string, textSearchConfig: string): [string, string] {
  const { words, variants } = textSearchConfig === "english" ? spellingVariantsOf(text) : { words: [], variants: [] };
  return [textArray(words), textArray(variants)];
}

export async function queryLexemes(db: Database, text: string, textSearchConfig: string, agentId: string): Promise<QuestionLexemes> {
  const { rows } = await db.query<QuestionLexemes>(questionLexemesSql("$1", "$2", "$3", "$4", "$5"), [textSearchConfig, text, agentId, ...spellingParameters(text, textSearchConfig)]);
  return questionLexemesOf(rows[0]);
}

const questionLexemesOf = (row: QuestionLexemes | undefined): QuestionLexemes => ({
  lexemes: row?.lexemes ?? [],
  revision: row?.revision ?? "0",
  spellings: row?.spellings ?? [],
  pairs: row?.pairs ?? [],
});

/**
 * searchByVector and the question's lexemes (for searchByText) in one round trip: what a retrieval
 * reads before it scores, so that a question costs one statement fewer.
 */
export async function searchByVectorWithLexemes(
  db: Database,
  query: VectorQuery & { text: string; textSearchConfig: string },
): Promise<{ nearest: RankedChunk[]; question: QuestionLexemes }> {
  const { rows } = await db.query<QuestionLexemes & { id: number | null; similarity: number | null }>(
    // The question's arrays come on the first row only: the driver parses every row's arrays.
    `SELECT CASE WHEN row_number() OVER best = 1 THEN question.lexemes END AS lexemes, question.revision,
       CASE WHEN row_number() OVER best = 1 THEN question.spellings END AS spellings,
       CASE WHEN row_number() OVER best = 1 THEN question.pairs END AS pairs,
       nearest.id, nearest.similarity
     FROM (${questionLexemesSql("$6", "$7", "$1", "$8", "$9")}) question
     LEFT JOIN LATERAL (${vectorSearchSql(query)}) nearest ON true
     WINDOW best AS (ORDER BY nearest.similarity DESC, nearest.id)
     ORDER BY nearest.similarity DESC, nearest.id`,
    [...vectorSearchParameters(query), query.textSearchConfig, query.text, ...spellingParameters(query.text, query.textSearchConfig)],
  );
  const nearest = rows.flatMap((row) => (row.id === null || row.similarity === null ? [] : [toRankedChunk({ id: row.id, similarity: row.similarity })]));
  return { nearest, question: questionLexemesOf(rows[0]) };
}

/**
 * A lexeme's term frequency in a chunk, as both BM25 paths count it: its positions, those in the
 * title (weight A) and heading (weight B) counted `boost` more times. `lexeme` is a row of
 * `unnest(search_vector)`; `boost` the parameter carrying `BM25.titleBoost`.
 */
function weightedTermFrequency(lexeme: string, boost: string): string {
  return `(cardinality(${lexeme}.positions) + ${boost}::int * cardinality(array_remove(array_remove(${lexeme}.weights, 'C'), 'D')))`;
}

/**
 * The SQL path's candidates are the chunks holding one of the question's words, the rarest first,
 * while their postings (Σ document frequency) stay within this many; past it the commonest words
 * only score the chunks the rarer ones found…
 */
export const SQL_CANDIDATE_POSTINGS = 1000;
/**
 * …and of those, the best by Σ IDF of the question's words they hold (a cheap stand-in for BM25)
 * are scored by BM25: every candidate while there are at most this many, so the SQL path ranks as
 * the in-memory index does for any agent whose matching chunks are within it.
 */
export const SQL_SCORED_CANDIDATES = 300;
/** The preselection's Σ IDF counts at most this many of the question's words (the rarest). */
const PRESELECTION_TERMS = 16;

/**
 * …and never more chunks than that are matched and ordered per question: when even the rarest of
 * the question's words is in more (as every word is in a large agent's knowledge of few distinct
 * words), ordering its chunks would cost in proportion to the knowledge (4,826 chunks of one word,
 * 142 ms of a 100,000-chunk agent's statement, nearly all of it reading their tsvectors), and the
 * lexical side scores the vector side's nearest chunks instead (`searchByTextInSql`'s `nearest`).
 */
export const SQL_MAX_MATCHED_CHUNKS = SQL_CANDIDATE_POSTINGS;

/**
 * The words whose chunks are the SQL path's candidates: the rarest first (`known` is sorted by
 * IDF, highest first), while their postings stay within `maxPostings`; always the rarest one,
 * unless it alone is in more than `maxMatched` chunks: then none.
 */
export function candidateSelectingTerms<T extends { df: number }>(known: readonly T[], maxPostings = SQL_CANDIDATE_POSTINGS, maxMatched = SQL_MAX_MATCHED_CHUNKS): T[] {
  const selected: T[] = [];
  let postings = 0;
  for (const term of known) {
    if (selected.length === 0 && term.df > maxMatched) break;
    if (selected.length > 0 && postings + term.df > maxPostings) break;
    selected.push(term);
    postings += term.df;
  }
  return selected;
}

/** A question's word as lexical search weighs it. */
export interface WeightedQueryTerm {
  lexeme: string;
  df: number;
  idf: number;
  /** General-English rarity of the word the lexeme comes from. */
  weight: number;
}

/** A lexeme as a tsquery operand, taken literally (quoted, not parsed or stemmed again). */
const tsqueryOperand = (lexeme: string) => `'${lexeme.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;

/**
 * BM25 over the chunks holding the question's known words, scored in SQL (see `searchByText`):
 * the chunks of its rarer words (`candidateSelectingTerms`), or, when even its rarest word is in
 * too many chunks to order per question, those of `nearest` (the vector side's best) that hold
 * any of them. Either way the rows read are bounded, whatever the knowledge's size.
 */
export async function searchByTextInSql(
  db: Queryable,
  query: { agentId: string; embedder: string; limit: number },
  known: WeightedQueryTerm[],
  averageLength: number,
  nearest: readonly number[] = [],
): Promise<{ chunkId: number; score: number; matchedIdf: number; matchedWeight: number }[]> {
  const quoted = (term: WeightedQueryTerm) => tsqueryOperand(term.lexeme);
  const selecting = candidateSelectingTerms(known);
  if (selecting.length === 0 && nearest.length === 0) return [];
  const selector = (selecting.length > 0 ? selecting : known).map(quoted).join(" | ");
  const among = selecting.length > 0 ? "" : "AND c.id IN (SELECT (jsonb_array_elements_text($12::jsonb))::bigint)";
  // Σ IDF of the words a candidate holds (`preselected`: one single-lexeme tsquery per word and its
  // IDF), each tested by the tsvector's own binary search.
  const preselected = known.slice(0, PRESELECTION_TERMS);
  const preselection = preselected.map((_, i) => `(CASE WHEN c.search_vector @@ p.queries[${i + 1}] THEN p.idfs[${i + 1}] ELSE 0 END)`).join(" + ");
  const { rows } = await db.query<{ id: number; score: number; matched_idf: number; matched_weight: number }>(
    `WITH weights AS (
       SELECT key AS lexeme, (value->>0)::float8 AS idf, (value->>1)::float8 AS weight FROM jsonb_each($3::jsonb)
     ),
     preselected AS (
       SELECT array_agg((value->>0)::tsquery ORDER BY position) AS queries, array_agg((value->>1)::float8 ORDER BY position) AS idfs
       FROM jsonb_array_elements($11::jsonb) WITH ORDINALITY AS term(value, position)
     ),
     candidates AS (
       SELECT c.id, c.search_vector FROM chunks c CROSS JOIN preselected p
       WHERE c.agent_id = $1 AND c.embedder = $2 AND c.search_vector @@ to_tsquery('simple', $4) ${among}
       ORDER BY ${preselection} DESC, c.id
       LIMIT $5
     )
     SELECT cand.id::int AS id,
       sum(w.idf * (tf.n * ($7::float8 + 1)) / (tf.n + $7::float8 * (1 - $8::float8 + $8::float8 * length(cand.search_vector) / $9::float8))) AS score,
       sum(w.idf) AS matched_idf, sum(w.weight) AS matched_weight
     FROM candidates cand
     CROSS JOIN LATERAL unnest(cand.search_vector) AS u
     JOIN weights w ON w.lexeme = u.lexeme
     CROSS JOIN LATERAL (
       SELECT ${weightedTermFrequency("u", "$10")}::float8 AS n
     ) tf
     GROUP BY cand.id
     ORDER BY score DESC, cand.id
     LIMIT $6`,
    [
      query.agentId,
      query.embedder,
      JSON.stringify(Object.fromEntries(known.map((term) => [term.lexeme, [term.idf, term.weight]]))),
      selector,
      SQL_SCORED_CANDIDATES,
      query.limit,
      BM25.k1,
      BM25.b,
      averageLength,
      BM25.titleBoost,
      JSON.stringify(preselected.map((term) => [quoted(term), term.idf])),
      ...(among ? [JSON.stringify(nearest)] : []),
    ],
  );
  return rows.map((row) => ({ chunkId: row.id, score: Number(row.score), matchedIdf: Number(row.matched_idf), matchedWeight: Number(row.matched_weight) }));
}

export interface ChunkPassage {
  chunkId: number;
  documentId: number;
  url: string;
  title: string;
  heading: string | null;
  content: string;
  /** The chunk's place in its document (0-based), so that a reply can quote one document's passages in page order. */
  chunkIndex: number;
}

/**
 * The text and document of each chunk, scoped to the agent again (defence in depth), with its
 * proximity term for `pairs` (term-proximity.ts): Σ weight of the pairs whose words it holds close
 * together, each tested by a phrase query on its tsvector (a parameter each, with its weight).
 */
export async function loadChunkPassages(
  db: Database,
  agentId: string,
  chunkIds: number[],
  pairs: readonly TermPair[] = [],
): Promise<Map<number, { passage: ChunkPassage; proximity: number }>> {
  if (chunkIds.length === 0) return new Map();
  const proximity = pairs.map((_, i) => `(CASE WHEN c.search_vector @@ $${3 + 2 * i}::tsquery THEN $${4 + 2 * i}::float8 ELSE 0 END)`).join(" + ") || "0";
  const { rows } = await db.query<{
    id: number;
    document_id: number;
    url: string;
    title: string;
    heading: string | null;
    content: string;
    chunk_index: number;
    document_title: string | null;
    page: number | null;
    proximity: number;
  }>(
    `SELECT c.id::int AS id, c.document_id::int AS document_id, d.url, c.title, c.heading, c.content, c.chunk_index::int AS chunk_index, d.title AS document_title, c.page,
       (${proximity})::float8 AS proximity
     FROM chunks c JOIN documents d ON d.id = c.document_id
     WHERE c.agent_id = $1 AND c.id = ANY (SELECT (jsonb_array_elements_text($2::jsonb))::bigint)`,
    [agentId, JSON.stringify(chunkIds), ...pairs.flatMap((pair) => [closeTogetherQuery(pair, tsqueryOperand), pair.weight])],
  );
  return new Map(
    rows.map((row) => [
      row.id,
      {
        passage: {
          chunkId: row.id,
          documentId: row.document_id,
          // A chunk from a page of a file (a PDF's) is cited at that page: viewers open `#page=N` there.
          url: row.page === null || row.url.includes("#") ? row.url : `${row.url}#page=${row.page}`,
          title: row.title || row.document_title || "",
          heading: row.heading,
          content: row.content,
          chunkIndex: Number(row.chunk_index),
        },
        proximity: Number(row.proximity),
      },
    ]),
  );
}

/**
 * An agent's knowledge revision, and how many postings (Σ distinct lexemes per chunk) an index of
 * its chunks of one embedder would hold. Read before the chunks: whatever commits after it moves
 * the revision past it, so an index labelled with it is never taken for newer than it is.
 */
export async function readKnowledgeHead(db: Database, agentId: string, embedder: string): Promise<{ revision: string; postings: number }> {
  const { rows } = await db.query<{ revision: string; postings: number | null }>(
    `SELECT coalesce((SELECT revision FROM knowledge_revisions WHERE agent_id = $1), 0)::text AS revision,
       (SELECT sum(length(search_vector))::float8 FROM chunks WHERE agent_id = $1 AND embedder = $2) AS postings`,
    [agentId, embedder],
  );
  return { revision: rows[0]?.revision ?? "0", postings: Number(rows[0]?.postings ?? 0) };
}

/** The next `limit` chunks of an agent (one embedder) after chunk id `after`, as the lexical index stores them. */
export async function readIndexedChunks(
  db: Database,
  query: { agentId: string; embedder: string; after: number; limit: number },
): Promise<IndexedChunk[]> {
  const { rows } = await db.query<{ id: number; length: number; lexemes: string[]; frequencies: number[] }>(
    `SELECT c.id::int AS id, c.length,
       coalesce(array_agg(u.lexeme) FILTER (WHERE u.lexeme IS NOT NULL), '{}') AS lexemes,
       coalesce(array_agg(${weightedTermFrequency("u", "$4")})
         FILTER (WHERE u.lexeme IS NOT NULL), '{}') AS frequencies
     FROM (SELECT id, length(search_vector) AS length, search_vector FROM chunks
           WHERE agent_id = $1 AND embedder = $2 AND id > $3 ORDER BY id LIMIT $5) c
     LEFT JOIN LATERAL unnest(c.search_vector) AS u ON true
     GROUP BY c.id, c.length
     ORDER BY c.id`,
    [query.agentId, query.embedder, query.after, BM25.titleBoost, query.limit],
  );
  return rows.map((row) => ({ chunkId: row.id, length: row.length, lexemes: row.lexemes, frequencies: row.frequencies.map(Number) }));
}
