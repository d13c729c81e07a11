import { estimateTokens } from "./estimate-tokens.js";
import { graphemeSegmenter, sentenceSegmenter, wordSegmenter } from "./segmenters.js";

/** The smallest piece the chunker moves: a sentence, or a hard-capped slice of an over-long one. */
export interface TextUnit {
  text: string;
  tokens: number;
  /** What goes before the unit when it follows another: "\n\n" at a paragraph start, else the whitespace that stood there ("", " " or "\n"). */
  separator: string;
}

export interface Paragraph {
  units: TextUnit[];
  tokens: number;
}

const PARAGRAPH_BREAK = "\n\n";

/**
 * Abbreviations after which ICU's sentence rules (which have no abbreviation list in V8) wrongly
 * end a sentence: titles, "e.g."/"i.e."/"vs." and similar, and single initials ("J. Smith", "z. B.").
 */
const ABBREVIATION_AT_END =
  /(?:^|[\s(])(?:mr|mrs|ms|mx|dr|prof|sr|jr|st|mt|no|nr|vs|cf|ca|approx|fig|vol|e\.g|i\.e|\p{L})\.$/iu;

/**
 * Cuts a section's text into paragraphs (at blank lines) and each paragraph into sentences with
 * `Intl.Segmenter`. A sentence over `maxUnitTokens` is cut at word boundaries into pieces of at most
 * `pieceTokens`; a single word over that (a pasted hash or data URI) is cut between characters.
 */
export function splitParagraphs(text: string, maxUnitTokens: number, pieceTokens: number): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  for (const block of text.split(/\n[^\S\n]*\n\s*/)) {
    const units = splitSentences(block.trim()).flatMap((unit) =>
      unit.tokens > maxUnitTokens ? capUnit(unit, pieceTokens) : [unit],
    );
    const first = units[0];
    if (first === undefined) continue;
    first.separator = PARAGRAPH_BREAK;
    paragraphs.push({ units, tokens: units.reduce((sum, unit) => sum + unit.tokens, 0) });
  }
  return paragraphs;
}

function splitSentences(paragraph: string): TextUnit[] {
  const units: TextUnit[] = [];
  let separator = "";
  let pending = "";
  for (const { segment } of sentenceSegmenter.segment(paragraph)) {
    const sentence = segment.trim();
    const trailing = segment.slice(segment.trimEnd().length);
    if (sentence === "") continue;
    pending += sentence;
    if (!trailing.includes("\n") && ABBREVIATION_AT_END.test(pending)) {
      pending += trailing;
      continue;
    }
    units.push({ text: pending, tokens: estimateTokens(pending), separator });
    pending = "";
    separator = normaliseSeparator(trailing);
  }
  if (pending.trim() !== "") units.push({ text: pending.trim(), tokens: estimateTokens(pending), separator });
  return units;
}

/** Cuts an over-long sentence at word boundaries into pieces of about equal size, none above `pieceTokens`. */
function capUnit(unit: TextUnit, pieceTokens: number): TextUnit[] {
  const limit = Math.ceil(unit.tokens / Math.ceil(unit.tokens / pieceTokens));
  const pieces: TextUnit[] = [];
  let piece: TextUnit | undefined;
  let gap = "";
  const flush = (): void => {
    if (piece !== undefined) pieces.push(piece);
    piece = undefined;
  };
  for (const { segment } of wordSegmenter.segment(unit.text)) {
    if (segment.trim() === "") {
      gap += segment;
      continue;
    }
    const separator = pieces.length === 0 && piece === undefined ? unit.separator : normaliseSeparator(gap);
    const tokens = estimateTokens(segment);
    if (tokens > limit) {
      flush();
      sliceWord(segment, limit).forEach((slice, index) => {
        pieces.push({ text: slice, tokens: estimateTokens(slice), separator: index === 0 ? separator : "" });
      });
    } else if (piece === undefined || piece.tokens + tokens > limit) {
      flush();
      piece = { text: segment, tokens, separator };
    } else {
      piece.text += gap + segment;
      piece.tokens += tokens;
    }
    gap = "";
  }
  flush();
  return pieces;
}

/**
 * Cuts one absurdly long word between grapheme clusters into slices of at most `limit` tokens.
 * Slices are sized from the word's average tokens per grapheme, then shrunk if a slice estimates higher.
 */
function sliceWord(word: string, limit: number): string[] {
  const graphemes = Array.from(graphemeSegmenter.segment(word), (part) => part.segment);
  const perGrapheme = estimateTokens(word) / graphemes.length;
  const size = Math.max(1, Math.floor(limit / perGrapheme));
  const slices: string[] = [];
  for (let start = 0; start < graphemes.length; ) {
    let end = Math.min(graphemes.length, start + size);
    while (end - start > 1 && estimateTokens(graphemes.slice(start, end).join("")) > limit) {
      end = start + Math.max(1, Math.floor((end - start) * 0.9));
    }
    slices.push(graphemes.slice(start, end).join(""));
    start = end;
  }
  return slices;
}

function normaliseSeparator(whitespace: string): string {
  if (whitespace === "") return "";
  return whitespace.includes("\n") ? "\n" : " ";
}
