/**
 * Compounds are written with or without their hyphen ("e-bike" and "ebike", "cut-off" and
 * "cutoff", "post-graduate" and "postgraduate"), and the text-search parser makes different
 * lexemes of the two ("e-bik" against "ebik"). A question's lexeme the knowledge never uses is
 * looked up in its other spelling: joined when it has hyphens, hyphenated when the knowledge has
 * the same letters with hyphens. Exact letters only: no prefixes, no edit distance (both matched
 * unrelated words far more often than typos in the eval's questions).
 */
export class CompoundSpellings {
  /** The knowledge's hyphenated lexemes by their letters without hyphens (the first seen when several share them). */
  private readonly hyphenated = new Map<string, string>();

  constructor(vocabulary: Iterable<string>) {
    for (const lexeme of vocabulary) {
      if (!lexeme.includes("-")) continue;
      const joined = joinedForm(lexeme);
      if (joined !== "" && !this.hyphenated.has(joined)) this.hyphenated.set(joined, lexeme);
    }
  }

  /** The knowledge's spelling of a lexeme it does not use, or null when it has none. `isKnown` tells whether the knowledge uses a lexeme. */
  variantOf(lexeme: string, isKnown: (lexeme: string) => boolean): string | null {
    if (lexeme.includes("-")) {
      const joined = joinedForm(lexeme);
      if (joined !== "" && isKnown(joined)) return joined;
    }
    return this.hyphenated.get(joinedForm(lexeme)) ?? null;
  }
}

function joinedForm(lexeme: string): string {
  return lexeme.replaceAll("-", "");
}
