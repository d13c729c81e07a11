/**
 * Characters no string of the API may carry: U+0000 (Postgres refuses it in text and jsonb) and
 * an unpaired UTF-16 surrogate (it has no UTF-8 form; JSON and Postgres refuse it). The `u` flag
 * makes a well-formed surrogate pair one code point, which this class does not match.
 */
const UNSTORABLE_CHARACTER = /[\u0000\uD800-\uDFFF]/u;

export const UNSTORABLE_TEXT_MESSAGE = "must not contain U+0000 or an unpaired UTF-16 surrogate";

/** Whether `value` can be stored as it is: no U+0000, no unpaired surrogate. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE_CHARACTER.test(value);
}
