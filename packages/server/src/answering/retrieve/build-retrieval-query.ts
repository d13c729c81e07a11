import { antecedentOf, followUpReading, type FollowUpReading } from "./follow-up.js";

export interface RetrievalInput {
  message: string;
  recentVisitorMessages: string[];
  pageContext?: Record<string, unknown> | undefined;
  /** The language the follow-up test reads the message in. Default English. */
  language?: string;
}

/**
 * The text retrieval searches with: the visitor's message; for a follow-up that needs it ("and
 * to Germany?"), the visitor's previous message after it as that one was read (`antecedentOf`);
 * then what the page says it is. Earlier messages never join a question that stands alone, so an
 * earlier topic cannot outweigh it.
 */
export function buildRetrievalQuery(input: RetrievalInput): string {
  return retrievalTexts(input).query;
}

/** How a visitor's message is read for retrieval: alone or with the earlier message it follows up (`antecedent`), and the texts retrieval is given. */
export interface RetrievalTexts {
  reading: FollowUpReading;
  antecedent: string | null;
  /** The text retrieval searches with (`buildRetrievalQuery`). */
  query: string;
  /** The text retrieval tries alone first. */
  question: string;
}

/**
 * What retrieval is given for a visitor's message (`retrieveHybrid`): the query it searches with
 * (`buildRetrievalQuery`), and the question it tries alone first. A message that cannot be read
 * alone ("And on Sunday?", see `needsPrevious`) is not tried alone: its question is the query.
 */
export function retrievalTexts(input: RetrievalInput): RetrievalTexts {
  const language = input.language ?? "en";
  const reading = followUpReading(input.message, language);
  const parts = [input.message];
  const antecedent = reading === "alone" ? undefined : antecedentOf(input.message, input.recentVisitorMessages.filter((text) => text !== input.message), language);
  if (antecedent !== undefined) parts.push(antecedent);
  const context = input.pageContext;
  if (context) {
    const described = ["title", "product", "name", "category", "heading"]
      .map((key) => context[key])
      .filter((value): value is string => typeof value === "string" && value.trim() !== "")
      .map((value) => value.slice(0, 200));
    if (described.length > 0) parts.push(described.join(" — "));
  }
  const query = parts.join("\n");
  return { reading, antecedent: antecedent ?? null, query, question: reading === "only with the previous" ? query : input.message };
}
