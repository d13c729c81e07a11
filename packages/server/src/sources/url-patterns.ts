/**
 * A sitemap source's include and exclude URL patterns (issue 32 §3): glob-like, matched against a
 * page's path and query (`/blog/*`, `/help/*?print=*`), where `*` stands for any run of characters
 * (`/` included) and every other character stands for itself. A page is crawled when it matches an
 * include pattern (or there is none) and no exclude pattern. Patterns are validated by their zod
 * schema in packages/contracts; they are stored in the source's config.
 */

export interface UrlPatterns {
  include: readonly string[];
  exclude: readonly string[];
}

const escapeRegExp = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&");

function patternRegExp(pattern: string): RegExp {
  return new RegExp(`^${pattern.split("*").map(escapeRegExp).join(".*")}$`, "s");
}

const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

/** The patterns a source's config holds (none when it has none). */
export function urlPatternsOf(config: Record<string, unknown>): UrlPatterns {
  return { include: stringsOf(config.include_patterns), exclude: stringsOf(config.exclude_patterns) };
}

/** Whether the patterns say nothing (every page is crawled). */
export const hasNoPatterns = (patterns: UrlPatterns) => patterns.include.length === 0 && patterns.exclude.length === 0;

/** A predicate telling whether a page's URL is crawled under the patterns. */
export function urlPatternFilter(patterns: UrlPatterns): (url: string) => boolean {
  const include = patterns.include.map(patternRegExp);
  const exclude = patterns.exclude.map(patternRegExp);
  return (url) => {
    let target: string;
    try {
      const parsed = new URL(url);
      target = `${parsed.pathname}${parsed.search}`;
    } catch {
      return false;
    }
    if (include.length > 0 && !include.some((pattern) => pattern.test(target))) return false;
    return !exclude.some((pattern) => pattern.test(target));
  };
}
