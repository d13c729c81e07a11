/**
 * The text retrieval searches with: the visitor's message, then their recent messages (a
 * follow-up like "and to Germany?" needs the earlier question), then what the page says it is.
 */
export function buildRetrievalQuery(input: {
  message: string;
  recentVisitorMessages: string[];
  pageContext?: Record<string, unknown> | undefined;
}): string {
  const parts = [input.message];
  const earlier = input.recentVisitorMessages.slice(-2).filter((text) => text !== input.message);
  if (earlier.length > 0) parts.push(earlier.join("\n"));
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
