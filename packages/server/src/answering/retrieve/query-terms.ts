/** Words that carry no topic, for the languages visitors most often write in. */
const STOPWORDS = new Set(
  (
    "a an and are as at be but by can could do does did for from has have how i if in into is it its me my no not of on or our " +
    "please so than that the their them then there these they this to too us was we what when where which who why will with " +
    "would you your yours hi hello thanks thank get got any some about just also there's i'm im dont don't can't cant much many " +
    "le la les un une des du de et est pour que qui dans sur avec pas ne je vous nous il elle der die das und ist nicht ein eine " +
    "mit für auf el los las y es en por con para una unos o al lo se"
  ).split(" "),
);

/** The topic words of a question: lower-cased, stopwords dropped, cut to a 5-letter stem. */
export function queryTerms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((word) => word.length > 1 && !STOPWORDS.has(word)).map((word) => word.slice(0, 5)))];
}

/** The share of the question's topic words that appear (a passage word starting with the term's stem) in the passage. */
export function termCoverage(terms: string[], passage: string): number {
  if (terms.length === 0) return 0;
  const prefixes = new Set<string>();
  for (const word of passage.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    for (let length = 2; length <= Math.min(5, word.length); length += 1) prefixes.add(word.slice(0, length));
  }
  return terms.filter((term) => prefixes.has(term)).length / terms.length;
}
