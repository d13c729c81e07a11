/**
 * How close two questions are, for curated answers and the knowledge gaps list: lexical, on the
 * normalised text, so it is the same whichever embedder the deployment runs and needs no index
 * rebuild when the embedder changes.
 *
 * - `normaliseQuestion`: lower case, accents and punctuation removed, spaces collapsed (what is
 *   stored as `question_normalised`).
 * - `questionSimilarity`: the Dice coefficient of the two questions' content words (stop words
 *   dropped, a light suffix stemming so "delivering"/"delivered"/"deliveries" meet), from 0 to 1.
 *   Two questions without content words are compared on their normalised text (equal: 1).
 */
const STOP_WORDS = new Set(
  (
    "a an the and or but if of to in on at by for with from into about as is are was were be been being am do does did " +
    "doing have has had having i me my mine we us our you your yours he him his she her it its they them their this that " +
    "these those there here what which who whom whose when where why how can could would should will shall may might must " +
    "not no so than too very just also any some all each both more most other such only own same then once again " +
    "hi hello hey please thanks thank get got im ive id dont cant wont isnt arent its whats hows theres"
  ).split(" "),
);

export function normaliseQuestion(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function stem(word: string): string {
  for (const suffix of ["ing", "ies", "ied", "ed", "es", "ly", "s"]) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) {
      const base = word.slice(0, -suffix.length);
      return suffix === "ies" || suffix === "ied" ? `${base}y` : base;
    }
  }
  return word;
}

/** The set of content-word stems of a normalised question. */
export function contentStems(normalised: string): Set<string> {
  const stems = new Set<string>();
  for (const word of normalised.split(" ")) {
    if (word !== "" && !STOP_WORDS.has(word)) stems.add(stem(word));
  }
  return stems;
}

/** 0 to 1: the Dice coefficient of the content stems of two normalised questions. */
export function questionSimilarity(normalisedA: string, normalisedB: string): number {
  return stemSimilarity(contentStems(normalisedA), contentStems(normalisedB), normalisedA, normalisedB);
}

/** `questionSimilarity` of two questions whose content stems are already known. */
export function stemSimilarity(a: ReadonlySet<string>, b: ReadonlySet<string>, normalisedA: string, normalisedB: string): number {
  if (a.size === 0 || b.size === 0) return a.size === b.size && normalisedA === normalisedB ? 1 : 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return diceCoefficient(shared, a.size, b.size);
}

/** The Dice coefficient of two sets of these sizes sharing `shared` members. */
export const diceCoefficient = (shared: number, sizeA: number, sizeB: number): number => (2 * shared) / (sizeA + sizeB);
