import { wordSegmenter } from "./segmenters.js";

/**
 * One piece of a word-like segment, in the order a BERT basic tokenizer would see them:
 * a single CJK character (each is its own token), a run of Latin letters and digits, a run of
 * letters of another script, or a lone punctuation mark inside the word ("don't", "3.14", "x.com").
 */
const WORD_PIECE =
  /(?<cjk>[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}])|(?<latin>[\p{Script=Latin}\p{Nd}\p{M}]+)|(?<other>[\p{L}\p{M}\p{N}]+)|(?<mark>\S)/gu;

/**
 * A deterministic estimate of how many BERT WordPiece tokens a text becomes (the tokenizer family of
 * the small embedding models, whose limit is 512 tokens), computed without a vocabulary:
 *
 * - text is cut into words with `Intl.Segmenter` (granularity "word"; dictionary-based for CJK and Thai);
 * - every punctuation mark or symbol outside words counts 1, as BERT splits each one off;
 * - inside a word, each CJK character counts 1 (BERT splits ideographs one by one), each punctuation
 *   mark counts 1 ("don't" → don ' t), a run of Latin letters or digits counts 1 per started 6
 *   characters (short words are whole vocabulary entries, longer ones split into subwords), and a
 *   run of another script counts 1 per started 3 characters (these vocabularies cover them thinly).
 *
 * On English prose this lands at about 1.3 tokens per word, the usual WordPiece ratio. Every part
 * is an integer and words never span whitespace, so the estimate of texts joined by whitespace is
 * the sum of their estimates; the chunker relies on that.
 */
export function estimateTokens(text: string): number {
  return NEEDS_WORD_SEGMENTS.test(text) ? estimateBySegments(text) : countPieces(text);
}

/**
 * Text whose estimate depends on where the word segmenter cuts: a letter of another script than
 * Latin (Thai, Chinese and others are cut by dictionary, and a run of letters of two scripts may be
 * cut between them), a number that is no decimal digit ("x²y"), a combining mark that follows no
 * letter or digit, or a format character (a zero-width joiner or a soft hyphen: ICU counts a word
 * joined to an emoji by one, "ab\u200d👍", as no word at all). Text without any (English, French, German, Spanish, …) cannot be cut inside a
 * run of Latin letters, digits and marks (Unicode word rules WB4, WB5, WB8–WB10), and every other
 * visible character counts one whatever segment holds it, so counting the pieces of the whole text
 * gives the same estimate as segmenting it first, several times faster: the ingest workers estimate
 * every paragraph and chunk. A test checks both ways agree on generated and real text.
 */
const NEEDS_WORD_SEGMENTS = /[^\p{Script=Latin}\P{L}]|[\p{No}\p{Nl}\p{Cf}]|(?:^|[^\p{L}\p{Nd}\p{M}])\p{M}/u;

function countPieces(text: string): number {
  let tokens = 0;
  for (const match of text.matchAll(WORD_PIECE)) tokens += piece(match);
  return tokens;
}

/** The estimate through `Intl.Segmenter`'s words: exported for the test that compares both ways. */
export function estimateBySegments(text: string): number {
  let tokens = 0;
  for (const { segment, isWordLike } of wordSegmenter.segment(text)) {
    tokens += isWordLike === true ? estimateWordTokens(segment) : countSymbols(segment);
  }
  return tokens;
}

function estimateWordTokens(word: string): number {
  let tokens = 0;
  for (const match of word.matchAll(WORD_PIECE)) tokens += piece(match);
  return Math.max(tokens, 1);
}

function piece(match: RegExpMatchArray): number {
  const groups = match.groups ?? {};
  if (groups.latin !== undefined) return Math.ceil(countCodePoints(groups.latin) / 6);
  if (groups.other !== undefined) return Math.ceil(countCodePoints(groups.other) / 3);
  return 1;
}

function countSymbols(segment: string): number {
  let count = 0;
  for (const character of segment) if (!/\s/u.test(character)) count += 1;
  return count;
}

function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
