import type { Database } from "../../db/database.js";
import { lexemeWeights, MIN_WORD_WEIGHT } from "../confidence/general-english-rarity.js";
import { BM25, inverseDocumentFrequency } from "./bm25-parameters.js";
import { queryLexemes, searchByTextInSql, type QuestionLexemes, type RankedChunk, type WeightedQueryTerm } from "./chunk-search-repository.js";
import { withoutContractionFragments } from "./contraction-fragments.js";
import type { RetrievalCaches } from "./retrieval-caches.js";
import { MOST_PAIRS, type TermPair } from "./term-proximity.js";

export interface TextRankedChunk extends RankedChunk {
  /** Share of the question's weight (Σ IDF of its terms) that this chunk contains. */
  coverage: number;
  /** Share of the question's general-English rarity (see general-english-rarity.ts) that this chunk contains. */
  rareCoverage: number;
}

export interface TextSearch {
  chunks: TextRankedChunk[];
  /** Share of the question's weight carried by words the agent's knowledge never uses (1 when none match). */
  unknownShare: number;
  /** The same share weighted by general-English rarity: "much" missing costs nothing, "coronavirus" everything. */
  unknownRareShare: number;
  /** The question's distinctive lexemes (rarer than the commonest English words) the agent's knowledge never uses, as its text-search configuration stems them ("helicopt"). */
  unknownLexemes: string[];
  /** The question's neighbouring words that the knowledge holds, as searched, for the proximity term. */
  pairs: TermPair[];
  /** The most a chunk could score by BM25 for this question (its rarest words, saturated), so that a score over it is 0–1 and comparable across agents. */
  bestPossible: number;
}

/** The best score a passage can reach is counted over at most this many of the question's words (the rarest in the knowledge): a long message (a story, then the question) is judged like a short one. */
const SCORED_TERMS = 6;

/**
 * Okapi BM25 over one agent's chunks: IDF from the agent's own chunks (so a rare word like
 * "phone" outweighs a common one like "number"), term frequency from lexeme positions, title and
 * heading matches boosted. Any query word may match (a question is not a boolean query). Scored
 * exactly over every matching chunk by the agent's in-memory index when it is current; otherwise
 * in SQL, alike for any agent whose matching chunks are within `SQL_SCORED_CANDIDATES`, and over a
 * bounded set of candidates past it (`searchByTextInSql`).
 */
export async function searchByText(
  db: Database,
  caches: RetrievalCaches,
  query: { agentId: string; embedder: string; text: string; textSearchConfig: string; limit: number },
  /** The question's lexemes when already read (searchByVectorWithLexemes); otherwise they are read first. */
  read?: QuestionLexemes,
  /** The vector side's nearest chunks: the SQL path's candidates when the question's words are all in too many chunks to order. */
  nearest: readonly number[] = [],
): Promise<TextSearch> {
  const { lexemes: stemmed, revision, spellings, pairs } = read ?? (await queryLexemes(db, query.text, query.textSearchConfig, query.agentId));
  const questionLexemes = withoutContractionFragments(stemmed, query.text);
  const nothing: TextSearch = { chunks: [], unknownShare: 1, unknownRareShare: 1, unknownLexemes: [], pairs: [], bestPossible: 0 };
  if (questionLexemes.length === 0) return nothing;
  const index = caches.indexes.current(db, query.agentId, query.embedder, revision);
  const corpus = index
    ? {
        chunkCount: index.chunkCount,
        averageLength: index.averageLength,
        frequencyOf: (lexeme: string) => index.documentFrequency(lexeme),
        compoundVariant: (lexeme: string) => index.compoundVariant(lexeme),
      }
    : await caches.statistics.get(db, query.agentId, query.embedder, revision).then((statistics) => ({
        ...statistics,
        frequencyOf: (lexeme: string) => statistics.documentFrequency.get(lexeme) ?? 0,
        compoundVariant: (lexeme: string) => statistics.compounds.variantOf(lexeme, (candidate) => statistics.documentFrequency.has(candidate)),
      }));
  if (corpus.chunkCount === 0) return nothing;
  const weights = lexemeWeights(questionLexemes, query.text);
  // A word the knowledge spells otherwise ("ebike" for "e-bike", "honour" for "honor") is searched as it spells it, weighing what the question's word weighs.
  const otherSpellings = new Map<string, string[]>();
  for (const pair of spellings) {
    const [own = "", other = ""] = pair.split(" ");
    otherSpellings.set(own, [...(otherSpellings.get(own) ?? []), other]);
  }
  const spelledOtherwise = (lexeme: string): string | null => otherSpellings.get(lexeme)?.find((other) => corpus.frequencyOf(other) > 0) ?? null;
  const lexemes: string[] = [];
  const searchedAs = new Map<string, string>();
  for (const lexeme of questionLexemes) {
    const variant = corpus.frequencyOf(lexeme) > 0 ? null : (corpus.compoundVariant(lexeme) ?? spelledOtherwise(lexeme));
    const searched = variant ?? lexeme;
    searchedAs.set(lexeme, searched);
    if (lexemes.includes(searched)) continue;
    lexemes.push(searched);
    if (variant !== null) weights.set(variant, weights.get(lexeme) ?? 0);
  }
  // A word weighs by its rarity in general English and in this agent's knowledge: the agent's
  // own name is rare in English but in every chunk; "much" is everywhere in English.
  const unseenIdf = inverseDocumentFrequency(corpus.chunkCount, 0);
  const terms: WeightedQueryTerm[] = lexemes.map((lexeme) => {
    const df = corpus.frequencyOf(lexeme);
    const idf = inverseDocumentFrequency(corpus.chunkCount, df);
    return { lexeme, df, idf, weight: (weights.get(lexeme) ?? 0) * (idf / unseenIdf) };
  });
  const total = (list: WeightedQueryTerm[], of: (term: WeightedQueryTerm) => number) => list.reduce((sum, term) => sum + of(term), 0);
  const totalIdf = total(terms, (term) => term.idf);
  const unknown = terms.filter((term) => term.df === 0);
  const unknownShare = total(unknown, (term) => term.idf) / totalIdf;
  const totalWeight = total(terms, (term) => term.weight) || 1;
  const unknownRareShare = total(unknown, (term) => term.weight) / totalWeight;
  const known = terms.filter((term) => term.df > 0).sort((a, b) => b.idf - a.idf);
  const unknownLexemes = unknown.filter((term) => term.weight > MIN_WORD_WEIGHT).map((term) => term.lexeme);
  if (known.length === 0) return { ...nothing, unknownShare, unknownRareShare, unknownLexemes };
  const hits = index
    ? index.search(known, query.limit, BM25)
    : await searchByTextInSql(db, query, known, corpus.averageLength, nearest);
  const bestPossible = total([...terms].sort((a, b) => b.idf - a.idf).slice(0, SCORED_TERMS), (term) => term.idf) * (BM25.k1 + 1);
  return {
    chunks: hits.map((hit) => ({
      chunkId: hit.chunkId,
      score: hit.score,
      coverage: hit.matchedIdf / totalIdf,
      rareCoverage: hit.matchedWeight / totalWeight,
    })),
    unknownShare,
    unknownRareShare,
    unknownLexemes,
    pairs: knownPairs(pairs, searchedAs, new Map(known.map((term) => [term.lexeme, term.idf]))),
    bestPossible,
  };
}

/** The question's neighbouring lexemes ("a b") as searched, where the knowledge holds both, each weighing the lesser IDF: the heaviest `MOST_PAIRS`. */
function knownPairs(pairs: readonly string[], searchedAs: ReadonlyMap<string, string>, idfOf: ReadonlyMap<string, number>): TermPair[] {
  const found = new Map<string, TermPair>();
  for (const pair of pairs) {
    const [a = "", b = ""] = pair.split(" ");
    const first = searchedAs.get(a);
    const second = searchedAs.get(b);
    if (first === undefined || second === undefined || first === second) continue;
    const firstIdf = idfOf.get(first);
    const secondIdf = idfOf.get(second);
    if (firstIdf === undefined || secondIdf === undefined) continue;
    found.set(first < second ? `${first} ${second}` : `${second} ${first}`, { first, second, weight: Math.min(firstIdf, secondIdf) });
  }
  return [...found.values()].sort((a, b) => b.weight - a.weight).slice(0, MOST_PAIRS);
}

