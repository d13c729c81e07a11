import { CompoundSpellings } from "./compound-spellings.js";

/**
 * An in-memory inverted index of one agent's chunks (of one embedder) for exact Okapi BM25:
 * for each lexeme, the chunks that contain it and its weighted term frequency there. Built from
 * the store by `LexicalIndexCache` and used only while it matches the store exactly; scoring is
 * the same formula as the SQL path (`searchByText`), over every matching chunk rather than a
 * preselected few, in well under a millisecond for ten thousand chunks.
 */

/** One chunk as the store describes it: its lexemes and their weighted frequencies. */
export interface IndexedChunk {
  chunkId: number;
  /** Distinct lexemes of the chunk (`length(search_vector)`). */
  length: number;
  lexemes: readonly string[];
  /** Positions of each lexeme, title and heading positions counted `TITLE_BOOST` more times. */
  frequencies: readonly number[];
}

export interface WeightedTerm {
  lexeme: string;
  idf: number;
  /** A second weight summed over the terms a chunk contains (general-English rarity); 0 when absent. */
  weight?: number;
}

export interface LexicalHit {
  chunkId: number;
  score: number;
  /** Σ IDF of the query terms this chunk contains. */
  matchedIdf: number;
  /** Σ `weight` of the query terms this chunk contains. */
  matchedWeight: number;
}

export interface Bm25Parameters {
  k1: number;
  b: number;
}

interface Postings {
  /** Positions into the index's chunk arrays, ascending. */
  chunks: Int32Array;
  frequencies: Float32Array;
}

/** Bytes per posting (chunk position and frequency), per lexeme (its map entry and two typed arrays) and per chunk, as measured (docs/benchmarks.md). */
const BYTES_PER_POSTING = 8;
const BYTES_PER_LEXEME = 480;
const BYTES_PER_CHUNK = 16;

/** Chunks gathered per slice of an index built between other work (`LexicalIndex.build`). */
const BUILD_SLICE = 200;

interface PostingCollection {
  lists: Map<string, { chunks: number[]; frequencies: number[] }>;
  totalLength: number;
  postingCount: number;
}

interface GatheredPostings {
  lists: Map<string, Postings>;
  totalLength: number;
  postingCount: number;
}

const emptyCollection = (): PostingCollection => ({ lists: new Map(), totalLength: 0, postingCount: 0 });

/** Adds the postings of chunks [start, end) of `chunks` to the collection, each at its position plus `offset` in the index. */
function collectPostings(chunks: readonly IndexedChunk[], start: number, end: number, collection: PostingCollection, offset = 0): PostingCollection {
  for (let at = start; at < end; at += 1) {
    const chunk = chunks[at]!;
    const position = at + offset;
    collection.totalLength += chunk.length;
    chunk.lexemes.forEach((lexeme, i) => {
      let list = collection.lists.get(lexeme);
      if (!list) {
        list = { chunks: [], frequencies: [] };
        collection.lists.set(lexeme, list);
      }
      list.chunks.push(position);
      list.frequencies.push(chunk.frequencies[i] ?? 0);
      collection.postingCount += 1;
    });
  }
  return collection;
}

const toPostings = (list: { chunks: number[]; frequencies: number[] }): Postings => ({ chunks: Int32Array.from(list.chunks), frequencies: Float32Array.from(list.frequencies) });

function finishPostings(collection: PostingCollection): GatheredPostings {
  const lists = new Map<string, Postings>();
  for (const [lexeme, list] of collection.lists) lists.set(lexeme, toPostings(list));
  return { lists, totalLength: collection.totalLength, postingCount: collection.postingCount };
}

export class LexicalIndex {
  readonly chunkCount: number;
  readonly averageLength: number;
  /** Approximate memory held, for the cache's budget. */
  readonly byteSize: number;
  private readonly chunkIds: Float64Array;
  private readonly lengths: Float32Array;
  private readonly postings: Map<string, Postings>;
  // Scratch space reused by every search: a search runs synchronously, start to end.
  private readonly scores: Float64Array;
  private readonly matched: Float64Array;
  private readonly matchedWeights: Float64Array;
  private readonly touched: Int32Array;
  private compounds: CompoundSpellings | null = null;
  /** BM25's length normalisation per chunk, for the parameters it was last computed with. */
  private norms: { k1: number; b: number; values: Float64Array } | null = null;

  /** Builds the index at once (tests, evaluations); the service builds with `LexicalIndex.build`, in slices. */
  constructor(chunks: readonly IndexedChunk[], gathered?: GatheredPostings) {
    const postings = gathered ?? finishPostings(collectPostings(chunks, 0, chunks.length, emptyCollection()));
    this.chunkCount = chunks.length;
    this.chunkIds = Float64Array.from(chunks, (chunk) => chunk.chunkId);
    this.lengths = Float32Array.from(chunks, (chunk) => chunk.length);
    this.postings = postings.lists;
    this.averageLength = chunks.length === 0 ? 1 : postings.totalLength / chunks.length || 1;
    this.scores = new Float64Array(chunks.length);
    this.matched = new Float64Array(chunks.length);
    this.matchedWeights = new Float64Array(chunks.length);
    this.touched = new Int32Array(chunks.length);
    this.byteSize = postings.postingCount * BYTES_PER_POSTING + postings.lists.size * BYTES_PER_LEXEME + chunks.length * BYTES_PER_CHUNK * 4;
  }

  /**
   * The same index, built `BUILD_SLICE` chunks (and lexemes) at a time with `pause()` between the
   * slices, so that building ten thousand chunks (about 200 ms of CPU) never holds the event loop
   * for more than a few milliseconds: requests are served between the slices.
   */
  static async build(chunks: readonly IndexedChunk[], pause: () => Promise<void>): Promise<LexicalIndex> {
    const builder = new LexicalIndexBuilder();
    await builder.add(chunks, pause);
    return builder.finish(pause);
  }

  /** The memory an index of this many postings (Σ distinct lexemes per chunk) will hold, before building it. */
  static estimateBytes(postings: number): number {
    return postings * BYTES_PER_POSTING;
  }

  /** Number of chunks containing the lexeme. */
  documentFrequency(lexeme: string): number {
    return this.postings.get(lexeme)?.chunks.length ?? 0;
  }

  /** The knowledge's other spelling of a compound lexeme it does not use ("ebik" → "e-bik"), or null. */
  compoundVariant(lexeme: string): string | null {
    this.compounds ??= new CompoundSpellings(this.postings.keys());
    return this.compounds.variantOf(lexeme, (candidate) => this.postings.has(candidate));
  }

  /** The `limit` best chunks by BM25 over the terms, best first (ties: lower chunk id first). */
  search(terms: readonly WeightedTerm[], limit: number, parameters: Bm25Parameters): LexicalHit[] {
    if (limit <= 0) return [];
    const { k1 } = parameters;
    const norms = this.normsFor(parameters);
    let touchedCount = 0;
    for (const term of terms) {
      const list = this.postings.get(term.lexeme);
      if (!list) continue;
      const weight = term.weight ?? 0;
      for (let i = 0; i < list.chunks.length; i++) {
        const position = list.chunks[i]!;
        const frequency = list.frequencies[i]!;
        const norm = norms[position]!;
        if (this.matched[position] === 0) this.touched[touchedCount++] = position;
        this.scores[position]! += (term.idf * (frequency * (k1 + 1))) / (frequency + norm);
        this.matched[position]! += term.idf;
        this.matchedWeights[position]! += weight;
      }
    }
    // Keep the best `limit` in a small sorted array rather than sorting every matching chunk.
    const best: LexicalHit[] = [];
    for (let i = 0; i < touchedCount; i++) {
      const position = this.touched[i]!;
      const score = this.scores[position]!;
      const matchedIdf = this.matched[position]!;
      const matchedWeight = this.matchedWeights[position]!;
      const chunkId = this.chunkIds[position]!;
      this.scores[position] = 0;
      this.matched[position] = 0;
      this.matchedWeights[position] = 0;
      // Most matching chunks are not among the best: compare before allocating anything.
      const last = best.length === limit ? best[limit - 1]! : null;
      if (last && !(score > last.score || (score === last.score && chunkId < last.chunkId))) continue;
      const hit = { chunkId, score, matchedIdf, matchedWeight };
      let at = best.length === limit ? limit - 1 : best.length;
      while (at > 0 && ranksBefore(hit, best[at - 1]!)) {
        best[at] = best[at - 1]!;
        at -= 1;
      }
      best[at] = hit;
    }
    return best;
  }

  private normsFor({ k1, b }: Bm25Parameters): Float64Array {
    if (this.norms?.k1 !== k1 || this.norms.b !== b) {
      // The same operations, in the same order, as the SQL path, so both give the same scores.
      const values = new Float64Array(this.chunkCount);
      for (let position = 0; position < this.chunkCount; position++) values[position] = k1 * (1 - b + (b * this.lengths[position]!) / this.averageLength);
      this.norms = { k1, b, values };
    }
    return this.norms.values;
  }
}

/** Higher score first; on equal scores, the lower chunk id (as the SQL path orders). */
function ranksBefore(x: LexicalHit, y: LexicalHit): boolean {
  return x.score > y.score || (x.score === y.score && x.chunkId < y.chunkId);
}

const NO_LEXEMES: readonly string[] = [];
const NO_FREQUENCIES: readonly number[] = [];

/**
 * A `LexicalIndex` built from batches of chunks as they are read (ascending chunk ids), each batch's
 * lexemes turned into postings and let go before the next is read: the chunks' lexeme strings (a
 * string per lexeme per chunk, several times the index's own size) are never all held at once.
 */
export class LexicalIndexBuilder {
  private readonly collection = emptyCollection();
  /** Each chunk's id and length, in index order (its lexemes are in the postings). */
  private readonly chunks: IndexedChunk[] = [];

  /** Adds a batch, `BUILD_SLICE` chunks at a time with `pause()` between the slices. */
  async add(batch: readonly IndexedChunk[], pause: () => Promise<void>): Promise<void> {
    for (let start = 0; start < batch.length; start += BUILD_SLICE) {
      const end = Math.min(start + BUILD_SLICE, batch.length);
      collectPostings(batch, start, end, this.collection, this.chunks.length - start);
      for (let at = start; at < end; at += 1) this.chunks.push({ chunkId: batch[at]!.chunkId, length: batch[at]!.length, lexemes: NO_LEXEMES, frequencies: NO_FREQUENCIES });
      await pause();
    }
  }

  async finish(pause: () => Promise<void>): Promise<LexicalIndex> {
    const lists = new Map<string, Postings>();
    let converted = 0;
    for (const [lexeme, list] of this.collection.lists) {
      lists.set(lexeme, toPostings(list));
      this.collection.lists.delete(lexeme);
      converted += 1;
      if (converted % (BUILD_SLICE * 10) === 0) await pause();
    }
    return new LexicalIndex(this.chunks, { lists, totalLength: this.collection.totalLength, postingCount: this.collection.postingCount });
  }
}
