import { isFollowUp } from "./follow-up.js";

/**
 * The text retrieval searches with: the visitor's message; for a follow-up that needs it ("and
 * to Germany?"), the visitor's previous message after it; then what the page says it is. Earlier
 * messages never join a question that stands alone, so an earlier topic cannot outweigh it.
 */
export function buildRetrievalQuery(input: {
  message: string;
  recentVisitorMessages: string[];
  pageContext?: Record<string, unknown> | undefined;
  /** The language the follow-up test reads the message in. Default English. */
  language?: string;
}): string {
  const parts = [input.message];
  const previous = input.recentVisitorMessages.filter((text) => text !== input.message).at(-1);
  if (previous !== undefined && isFollowUp(input.message, input.language ?? "en")) parts.push(previous);
  const context = input.pageContext;
  if (context) {
    const described = ["title", "product", "name", "category", "heading"]
      .map((key) => context[key])
      .filter((value): value is string => typeof value === "string" && value.trim() !== "")
      .map((value) => value.slice(0, 200));
    if (described.length > 0) parts.push(described.join(" — "));
  }
  return parts.join("\n");
}
