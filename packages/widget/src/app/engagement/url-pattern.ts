/**
 * Whether a page matches a rule's URL pattern: `*` is any run of characters; a pattern starting
 * with http(s):// is matched against the whole URL, any other against the path and query.
 */
export function matchesUrlPattern(pattern: string, url: URL): boolean {
  const whole = /^https?:\/\//i.test(pattern);
  const subject = whole ? url.href : `${url.pathname}${url.search}`;
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  // A pattern without a query matches the page whatever its query.
  return new RegExp(`^${source}${!whole && !pattern.includes("?") ? "(\\?.*)?" : ""}$`, whole ? "i" : "").test(subject);
}
