/** Deterministic English prose for chunker tests: every sentence is unique and says which it is. */
const SUBJECTS = ["The support team", "Our warehouse in Elmby", "Every customer account", "The billing service", "A returned parcel"];
const VERBS = ["checks", "records", "sends out", "reviews", "keeps track of"];
const OBJECTS = [
  "the tracking number",
  "each refund request, together with the original receipt and the payment method,",
  "the delivery address",
  "a short confirmation e-mail in the language of the order",
  "the opening hours of every store in the region",
];
const ENDINGS = [".", " before noon.", " within two working days, unless a public holiday intervenes.", " on request.", ", e.g. for business customers."];

/** Sentence `n` of the prose; its text contains `#n` so tests can find it. */
export function sentence(n: number): string {
  const pick = <T>(items: readonly T[], salt: number): T => items[(n * salt + salt) % items.length] as T;
  return `${pick(SUBJECTS, 1)} ${pick(VERBS, 3)} ${pick(OBJECTS, 7)} for case #${n}${pick(ENDINGS, 11)}`;
}

/** `count` sentences starting at `from`, as one paragraph. */
export function paragraph(from: number, count: number): string {
  return Array.from({ length: count }, (_, offset) => sentence(from + offset)).join(" ");
}
