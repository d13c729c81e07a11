/**
 * The pieces of an English contraction ("ve" of "I've", "ll" of "you'll", "re", "d", "m", and
 * "won" of "won't"): Postgres' text-search configurations keep them as lexemes of their own, and
 * in a question they are filler, yet BM25 weighs them as rare words, since few passages hold
 * them. A page with one "I've forgotten my password" then outranks the returns page for "Can I
 * return a bike I've ridden?". A piece after the apostrophe counts only when it has one or two
 * letters, so "O'Brien" keeps "brien"; before it, only the word of a negation ending in "'t".
 */
const PIECE = /(?<=\p{L}['’])\p{L}{1,2}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])\p{L}+(?=['’]t(?![\p{L}\p{N}]))/gu;

/** The question's lexemes without those that come only from contraction pieces of `question`. */
export function withoutContractionFragments(lexemes: readonly string[], question: string): string[] {
  const lower = question.toLowerCase();
  const pieces = new Set(lower.match(PIECE) ?? []);
  if (pieces.size === 0) return [...lexemes];
  const whole = new Set(lower.replace(PIECE, " ").match(/[\p{L}\p{N}]+/gu) ?? []);
  return lexemes.filter((lexeme) => !pieces.has(lexeme) || whole.has(lexeme));
}
