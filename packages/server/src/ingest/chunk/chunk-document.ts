import type { ExtractedDocument } from "../extract/extracted-document.js";
import type { ChunkOptions, DocumentChunk } from "./document-chunk.js";
import { estimateTokens } from "./estimate-tokens.js";
import { splitParagraphs } from "./split-paragraphs.js";
import type { Paragraph, TextUnit } from "./split-paragraphs.js";

interface ChunkLimits {
  target: number;
  overlap: number;
  max: number;
  /** Longer sentences are cut at word boundaries (the hard cap). */
  maxUnit: number;
  /** Below this a chunk is not closed at a paragraph boundary; the paragraph is split by sentences instead. */
  minFill: number;
  /** A chunk this small at the end of its section takes in the next section. */
  mergeBelow: number;
  /** What is left of a section when it is this small goes into the current chunk, up to `max`. */
  tail: number;
}

interface PreparedSection {
  heading: string | null;
  paragraphs: Paragraph[];
  tokens: number;
}

/**
 * Splits a document into chunks of about `targetTokens` estimated tokens for embedding.
 *
 * Sections are chunked one after the other and a chunk never spans two of them, except that a chunk
 * still under half the target at the end of its section goes on into the next one (whose heading
 * is then written into the text; the chunk keeps the heading it started under). Within a section,
 * chunks end at paragraph boundaries; a paragraph is split at sentence boundaries only when it does
 * not fit and closing before it would leave the chunk under half full. Each chunk after the
 * first of a section starts with the last sentences of the one before it (about `overlapRatio` of
 * the target). A sentence longer than the limit is cut at word boundaries and, for a single
 * absurdly long word, between characters. The same document and options always give the same chunks.
 */
export function chunkDocument(document: ExtractedDocument, options: ChunkOptions = {}): DocumentChunk[] {
  const limits = resolveLimits(options);
  const sections = document.sections.length > 0 ? document.sections : [{ heading: null, text: document.text }];
  const packer = new ChunkPacker(document.title, limits);
  for (const section of sections) {
    const paragraphs = splitParagraphs(section.text, limits.maxUnit, limits.target);
    if (paragraphs.length === 0) continue;
    const tokens = paragraphs.reduce((sum, paragraph) => sum + paragraph.tokens, 0);
    packer.addSection({ heading: section.heading, paragraphs, tokens });
  }
  return packer.finish();
}

function resolveLimits(options: ChunkOptions): ChunkLimits {
  const target = options.targetTokens ?? 300;
  const ratio = options.overlapRatio ?? 0.15;
  if (!Number.isInteger(target) || target < 16) throw new RangeError(`targetTokens must be an integer ≥ 16, got ${target}`);
  if (!(ratio >= 0 && ratio <= 0.5)) throw new RangeError(`overlapRatio must be between 0 and 0.5, got ${ratio}`);
  const max = options.maxTokens ?? Math.ceil(target * 1.5);
  if (!Number.isInteger(max) || max < target) throw new RangeError(`maxTokens must be an integer ≥ targetTokens, got ${max}`);
  const overlap = Math.floor(target * ratio);
  return {
    target,
    overlap,
    max,
    maxUnit: Math.max(target, max - overlap),
    minFill: Math.ceil(target / 2),
    mergeBelow: Math.ceil(target / 2),
    tail: Math.floor(target / 4),
  };
}

interface OpenChunk {
  heading: string | null;
  parts: string[];
  tokens: number;
  /** The sentences in the chunk, overlap included; headings of merged sections are not units. */
  units: TextUnit[];
  /** Where the units of the section being written start (overlap never reaches into an earlier section). */
  sectionStart: number;
  /** How many units were written after the overlap. */
  fresh: number;
}

class ChunkPacker {
  private readonly chunks: DocumentChunk[] = [];
  private open: OpenChunk | undefined;

  constructor(
    private readonly title: string,
    private readonly limits: ChunkLimits,
  ) {}

  addSection(section: PreparedSection): void {
    const open = this.open;
    if (open !== undefined) {
      const headingTokens = section.heading === null ? 0 : estimateTokens(section.heading);
      const firstSentenceTokens = section.paragraphs[0]?.units[0]?.tokens ?? 0;
      const merge =
        open.tokens < this.limits.mergeBelow && open.tokens + headingTokens + firstSentenceTokens <= this.limits.target;
      if (merge) {
        if (section.heading !== null) open.parts.push(`\n\n${section.heading}`);
        open.tokens += headingTokens;
        open.sectionStart = open.units.length;
      } else {
        this.close();
      }
    }
    this.open ??= startChunk(section.heading, []);

    let remaining = section.tokens;
    for (const paragraph of section.paragraphs) {
      if (this.shouldBreakBefore(paragraph.tokens, remaining, true)) this.continueWithOverlap(section.heading);
      for (const unit of paragraph.units) {
        if (this.shouldBreakBefore(unit.tokens, remaining, false)) this.continueWithOverlap(section.heading);
        this.write(unit);
        remaining -= unit.tokens;
      }
    }
  }

  finish(): DocumentChunk[] {
    this.close();
    return this.chunks;
  }

  private shouldBreakBefore(tokens: number, remaining: number, atParagraph: boolean): boolean {
    const open = this.open;
    if (open === undefined || open.fresh === 0 || open.tokens + tokens <= this.limits.target) return false;
    if (remaining <= this.limits.tail && open.tokens + remaining <= this.limits.max) return false;
    // An under-filled chunk is not closed: it takes sentences of the next paragraph, or the next
    // sentence in full while that stays under the maximum.
    if (open.tokens < this.limits.minFill) return !atParagraph && open.tokens + tokens > this.limits.max;
    return true;
  }

  private write(unit: TextUnit): void {
    let open = this.open;
    if (open === undefined || (open.fresh === 0 && open.tokens + unit.tokens > this.limits.max)) {
      // No room for the overlap next to this unit: start the chunk without it.
      open = startChunk(open?.heading ?? null, []);
      this.open = open;
    }
    open.parts.push(open.parts.length === 0 ? unit.text : unit.separator + unit.text);
    open.tokens += unit.tokens;
    open.units.push(unit);
    open.fresh += 1;
  }

  private continueWithOverlap(heading: string | null): void {
    const previous = this.open;
    this.close();
    this.open = startChunk(heading, previous === undefined ? [] : this.pickOverlap(previous));
  }

  /** The last sentences of a chunk that fit in the overlap budget (one slightly larger sentence if none fits). */
  private pickOverlap(chunk: OpenChunk): TextUnit[] {
    const budget = this.limits.overlap;
    const candidates = chunk.units.slice(Math.max(chunk.sectionStart, 1));
    const picked: TextUnit[] = [];
    let tokens = 0;
    for (let index = candidates.length - 1; index >= 0 && budget > 0; index -= 1) {
      const unit = candidates[index];
      if (unit === undefined || tokens + unit.tokens > budget) break;
      picked.unshift(unit);
      tokens += unit.tokens;
    }
    const last = candidates.at(-1);
    if (picked.length === 0 && last !== undefined && budget > 0 && last.tokens <= 2 * budget) picked.push(last);
    return picked;
  }

  private close(): void {
    const open = this.open;
    this.open = undefined;
    if (open === undefined || open.fresh === 0) return;
    const text = open.parts.join("");
    this.chunks.push({
      index: this.chunks.length,
      heading: open.heading,
      title: this.title,
      text,
      tokenEstimate: estimateTokens(text),
    });
  }
}

function startChunk(heading: string | null, overlap: TextUnit[]): OpenChunk {
  const parts = overlap.map((unit, position) => (position === 0 ? unit.text : unit.separator + unit.text));
  const tokens = overlap.reduce((sum, unit) => sum + unit.tokens, 0);
  return { heading, parts, tokens, units: [...overlap], sectionStart: 0, fresh: 0 };
}
