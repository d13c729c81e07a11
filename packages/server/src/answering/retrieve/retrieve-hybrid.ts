import type { Database } from "../../db/database.js";
import type { Embedder } from "../../embeddings/embedder.js";
import type { RetrievalCaches } from "./retrieval-caches.js";
import { searchByVectorWithLexemes, loadChunkPassages, type ChunkPassage, type RankedChunk } from "./chunk-search-repository.js";
import { searchByText } from "./search-by-text.js";
import { reciprocalRankFusion } from "./reciprocal-rank-fusion.js";
import { mostProximity, rankedByProximity } from "./term-proximity.js";
import type { RetrievalCalibration } from "./retrieval-calibration.js";
import { confidenceScore, isConfident, type RetrievalSignals } from "../confidence/retrieval-confidence.js";

export { isConfident, type RetrievalSignals };

export interface RetrievedPassage extends ChunkPassage {
  /** 1-based, as the answer generator numbers passages. */
  number: number;
  score: number;
}

export interface Retrieval {
  passages: RetrievedPassage[];
  signals: RetrievalSignals;
  lowConfidence: boolean;
  /** The question's distinctive lexemes the agent's knowledge never uses (stemmed: "helicopt"; "much" is no distinctive word). */
  unknownLexemes: string[];
  /** Each side's ranking, for evaluation: the lexical side's is BM25's own, before the proximity term. */
  vectorRanking: number[];
  textRanking: number[];
  /** The fused ranking of chunk ids. */
  fusedRanking: number[];
}


export interface RetrieveOptions {
  agentId: string;
  /** The text to search with: the visitor's message, enriched by `buildRetrievalQuery`. */
  query: string;
  /** The visitor's own words, for the lexical confidence signal. */
  question: string;
  textSearchConfig: string;
  calibration: RetrievalCalibration;
  /** Chunks taken from each side before fusion. */
  candidates?: number;
  /** Passages given to the generator. */
  passageLimit?: number;
  /** At most this many passages of one document. */
  perDocument?: number;
}

/**
 * Hybrid retrieval over one agent's chunks: pgvector cosine search and Postgres full-text search,
 * fused by reciprocal rank fusion, among vectors of the active embedder only.
 */
export async function retrieveHybrid(db: Database, embedder: Embedder, lexical: RetrievalCaches, options: RetrieveOptions): Promise<Retrieval> {
  if (options.query === options.question) return retrieveOnce(db, embedder, lexical, options);
  // The query adds earlier messages or the page's context: the question alone is tried first, and
  // the enriched query is kept only when the question alone is not grounded and it is better grounded.
  const alone = await retrieveOnce(db, embedder, lexical, { ...options, query: options.question });
  if (!alone.lowConfidence) return alone;
  const enriched = await retrieveOnce(db, embedder, lexical, options);
  const { coverageWeight } = options.calibration.thresholds;
  if (!enriched.lowConfidence || confidenceScore(enriched.signals, coverageWeight) > confidenceScore(alone.signals, coverageWeight)) return enriched;
  return alone;
}

async function retrieveOnce(db: Database, embedder: Embedder, lexical: RetrievalCaches, options: RetrieveOptions): Promise<Retrieval> {
  const candidates = options.candidates ?? 20;
  const [vector] = await embedder.embed([options.query]);
  const search = { agentId: options.agentId, embedder: embedder.id, limit: candidates, text: options.query, textSearchConfig: options.textSearchConfig };
  const ownIndex = await lexical.ownVectorIndexes.has(db, options.agentId);
  // One round trip for the nearest vectors and the question's lexemes; the lexical scoring then runs in memory (or in SQL).
  const { nearest: byVector, question } = await searchByVectorWithLexemes(db, { ...search, vector: vector!, ownIndex });
  const textSearch = await searchByText(db, lexical, search, question, byVector.map((chunk) => chunk.chunkId));
  const byText = textSearch.chunks;
  const weights = options.calibration.fusion;
  const fuse = (lexical: RankedChunk[]) => reciprocalRankFusion([lexical, byVector], [weights.text, weights.vector]);
  // One statement reads the passages that can be given and the lexical side's proximity terms: the
  // best candidates as BM25 and the vectors fuse, and every lexical candidate (re-ordering moves
  // only those). A vector-only chunk that re-ordering lifts into the best is skipped, as any chunk
  // past them is.
  const candidateIds = new Set([...fuse(byText).slice(0, candidates), ...byText].map((chunk) => chunk.chunkId));
  const details = await loadChunkPassages(db, options.agentId, [...candidateIds], textSearch.pairs);
  const byTextAndProximity = rankedByProximity(byText, (chunkId) => details.get(chunkId)?.proximity ?? 0);
  const fused = fuse(byTextAndProximity);

  const passages: RetrievedPassage[] = [];
  const perDocument = new Map<number, number>();
  for (const chunk of fused) {
    const passage = details.get(chunk.chunkId)?.passage;
    if (!passage) continue;
    const taken = perDocument.get(passage.documentId) ?? 0;
    if (taken >= (options.perDocument ?? 2)) continue;
    perDocument.set(passage.documentId, taken + 1);
    passages.push({ ...passage, number: passages.length + 1, score: chunk.score });
    if (passages.length >= (options.passageLimit ?? 5)) break;
  }

  const textHits = new Map(byTextAndProximity.map((chunk) => [chunk.chunkId, chunk]));
  const mostScore = textSearch.bestPossible + mostProximity(textSearch.pairs);
  const best = passages.slice(0, 3).map((passage) => textHits.get(passage.chunkId));
  const signals: RetrievalSignals = {
    topSimilarity: byVector[0]?.score ?? 0,
    topCoverage: Math.max(0, ...best.map((hit) => hit?.coverage ?? 0)),
    unknownShare: textSearch.unknownShare,
    rareCoverage: Math.max(0, ...best.map((hit) => hit?.rareCoverage ?? 0)),
    unknownRareShare: textSearch.unknownRareShare,
    bestScore: Math.max(0, ...best.map((hit) => (hit && mostScore > 0 ? (hit.score + hit.proximity) / mostScore : 0))),
  };
  const lowConfidence = passages.length === 0 || !isConfident(signals, options.calibration.thresholds);
  return {
    passages,
    signals,
    lowConfidence,
    unknownLexemes: textSearch.unknownLexemes,
    vectorRanking: byVector.map((chunk) => chunk.chunkId),
    textRanking: byText.map((chunk) => chunk.chunkId),
    fusedRanking: fused.map((chunk) => chunk.chunkId),
  };
}

