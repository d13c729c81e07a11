import { isEnglish } from "./content-words.js";

/**
 * What kind of fact a question asks for, when its words say so: "How long does the warranty last?"
 * wants a duration, "How much is postage?" or "Do I have to pay anything?" an amount, "What time
 * do you open?" a time. The words that say it ("long", "much", "time") are the commonest of the
 * language and weigh nothing in the reply's choice of sentences (see `questionStemWeights`), so
 * without this a sentence about the warranty in general beats the row that says "2 years".
 * English only: another language's question asks for no kind here.
 */
export type AskedKind = "duration" | "amount" | "time";

const ASKS: ReadonlyArray<readonly [AskedKind, RegExp]> = [
  ["duration", /\bhow (?:long|soon|quickly)\b|\bhow many (?:working |business )?(?:minutes|hours|days|weeks|months|years)\b/iu],
  ["time", /\bwhat time\b|\bopening (?:hours|times)\b|\bwhen (?:are|is|do|does) (?:you|they|it|the \w+) (?:open|close|closed)\b|\bwhat days?\b/iu],
  [
    "amount",
    /\bhow much (?:is|are|does|do|did|will|would|for|to|extra|more)\b|\bwhat(?:'s| is| are| would be| will be)? (?:the )?(?:price|cost|fee|charge)s?\b|\b(?:does|do|would|will) (?:it|they|that|this) cost\b|\bis there (?:a|any) (?:fee|charge|cost)\b|\b(?:do|does|will|would|must) (?:i|we|you|they|he|she) (?:have|need) to pay\b|\bpay anything\b|\b(?:price|cost|fee|charge)s?\s*\?\s*$/iu,
  ],
];

/** The words that ask for a kind and say nothing of what it is about: "long" in "how long", "time" in "what time". */
export const ASKING_WORDS: Readonly<Record<AskedKind, readonly string[]>> = {
  duration: ["long", "soon", "quickly"],
  amount: ["much"],
  time: ["time"],
};

const NUMBER_WORD = "(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fourteen|fifteen|twenty|thirty|sixty|ninety)";
const NUMBER = `(?:\\d+(?:[.,]\\d+)?|${NUMBER_WORD}|a|an)`;
const TIME_UNIT = "(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)";

const HOLDS: Record<AskedKind, RegExp> = {
  duration: new RegExp(
    `\\b${NUMBER}(?:\\s*(?:-|–|to|or)\\s*${NUMBER})?[\\s-]*(?:working |business |full |calendar )?${TIME_UNIT}\\b|\\blifetime\\b|\\b(?:next|same)[\\s-](?:working[\\s-])?day\\b`,
    "iu",
  ),
  amount: /[£$€¥]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:p|pence|euros?|dollars?|pounds?|%)(?!\w)|\bfree\b|\bno (?:extra )?charge\b|\bat no (?:extra )?cost\b/iu,
  time: /\b\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\bweek(?:days?|ends?)\b|\bbank holidays?\b|\bnoon\b|\bmidnight\b/iu,
};

/** The kind of fact the question asks for, or null when its words do not say (or it is not English). */
export function askedKindOf(question: string, language: string): AskedKind | null {
  if (!isEnglish(language)) return null;
  for (const [kind, asks] of ASKS) if (asks.test(question)) return kind;
  return null;
}

/** Whether the text states a fact of that kind: "2 years", "£35", "9am to 5:30pm". */
export function holdsKind(text: string, kind: AskedKind): boolean {
  return HOLDS[kind].test(text);
}
