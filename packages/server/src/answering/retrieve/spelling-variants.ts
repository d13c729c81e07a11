import { readFileSync } from "node:fs";

/**
 * American and British spellings of one word ("honor" and "honour", "tire" and "tyre",
 * "license" and "licence"), from the lists in `word-lists/american-british-spellings` (see its
 * README). Postgres' English stemmer makes different lexemes of most of them ("honor", "honour";
 * not of "canceled" and "cancelled"), so a visitor who spells the other way would miss the page.
 */
const DATA = new URL("../../../word-lists/american-british-spellings/", import.meta.url);

let otherSpelling: Map<string, string> | null = null;

function spellings(): Map<string, string> {
  if (otherSpelling === null) {
    const read = (file: string) => Object.entries(JSON.parse(readFileSync(new URL(file, DATA), "utf8")) as Record<string, string>);
    otherSpelling = new Map([...read("british_spellings.json"), ...read("american_spellings.json")]);
  }
  return otherSpelling;
}

/** Loads the lists now (at start-up), so that the first question does not wait for them. */
export function loadSpellingVariants(): void {
  spellings();
}

/** The other spelling of a lower-cased word ("tires" → "tyres"), if it has one. */
export function otherSpellingOf(word: string): string | undefined {
  return spellings().get(word);
}

/** The words of `text` (lower-cased) that are spelled otherwise on the other side of the Atlantic, each with that spelling, in two aligned lists. */
export function spellingVariantsOf(text: string): { words: string[]; variants: string[] } {
  const words: string[] = [];
  const variants: string[] = [];
  for (const word of new Set(text.toLowerCase().match(/\p{L}+/gu) ?? [])) {
    const variant = otherSpellingOf(word);
    if (variant === undefined) continue;
    words.push(word);
    variants.push(variant);
  }
  return { words, variants };
}
