import robotsParserExport from "robots-parser";
import { collectBody } from "./response-body.js";
import { FetchError } from "../../network/fetch-error.js";
import type { GuardedFetcher } from "./guarded-fetcher.js";

export interface RobotsPolicyOptions {
  /** robots.txt goes through the same guarded fetcher as pages. */
  fetcher: GuardedFetcher;
  /** Product token matched against `User-agent` lines, e.g. `FrontdeskBot`. */
  userAgentToken: string;
  /** Cache lifetime of a fetched robots.txt (RFC 9309: at most 24 hours). */
  ttlMs: number;
  /** Cache lifetime of "unreachable, everything disallowed". */
  unreachableTtlMs: number;
  maxCrawlDelayMs: number;
  now: () => number;
  /** Origins remembered at once; the oldest is forgotten first. */
  maxEntries?: number;
}

export type RobotsVerdict =
  | { allowed: true; crawlDelayMs: number }
  | { allowed: false; reason: "disallowed" | "unreachable"; crawlDelayMs: number };

export interface RobotsPolicy {
  check(url: URL): Promise<RobotsVerdict>;
}

// robots-parser is CommonJS (`module.exports = fn`) but typed as `export default fn`, so under
// NodeNext the types put the function at `.default` while at runtime it is the import itself.
const robotsParser: typeof robotsParserExport.default =
  typeof robotsParserExport === "function" ? robotsParserExport : robotsParserExport.default;
type Robots = ReturnType<typeof robotsParser>;

type RobotsRules =
  | { kind: "parsed"; robots: Robots }
  | { kind: "allow-all" }
  | { kind: "unreachable" };

interface CacheEntry {
  expiresAt: number;
  rules: Promise<RobotsRules>;
}

/** RFC 9309 asks crawlers to parse at least 500 KiB; anything after is ignored. */
const maxRobotsBytes = 512 * 1024;

/**
 * robots.txt per origin, per RFC 9309: 2xx is parsed, 4xx allows everything, 5xx or 429
 * disallows everything (remembered for a shorter while), redirects are followed by the
 * fetcher. When robots.txt cannot be fetched at all (network failure, timeout, refused
 * address) its FetchError is thrown: nothing on the origin is fetched, and the caller sees
 * the real cause.
 */
export function createRobotsPolicy(options: RobotsPolicyOptions): RobotsPolicy {
  const cache = new Map<string, CacheEntry>();
  const maxEntries = options.maxEntries ?? 10_000;

  function rulesFor(origin: string): Promise<RobotsRules> {
    const cached = cache.get(origin);
    if (cached !== undefined && cached.expiresAt > options.now()) return cached.rules;
    cache.delete(origin);
    const rules = loadRules(origin, options);
    const entry: CacheEntry = { expiresAt: Number.POSITIVE_INFINITY, rules };
    cache.set(origin, entry);
    if (cache.size > maxEntries) {
      const oldest = cache.keys().next();
      if (oldest.done !== true) cache.delete(oldest.value);
    }
    rules.then(
      (loaded) => {
        const ttl = loaded.kind === "unreachable" ? options.unreachableTtlMs : options.ttlMs;
        entry.expiresAt = options.now() + ttl;
      },
      () => {
        if (cache.get(origin) === entry) cache.delete(origin);
      },
    );
    return rules;
  }

  return {
    async check(url) {
      const rules = await rulesFor(url.origin);
      if (url.pathname === "/robots.txt" || rules.kind === "allow-all") return { allowed: true, crawlDelayMs: 0 };
      if (rules.kind === "unreachable") return { allowed: false, reason: "unreachable", crawlDelayMs: 0 };
      const delaySeconds = rules.robots.getCrawlDelay(options.userAgentToken) ?? 0;
      const crawlDelayMs = Math.min(Math.max(delaySeconds * 1000, 0), options.maxCrawlDelayMs);
      const allowed = rules.robots.isAllowed(url.href, options.userAgentToken) ?? true;
      return allowed ? { allowed: true, crawlDelayMs } : { allowed: false, reason: "disallowed", crawlDelayMs };
    },
  };
}

/**
 * Resolves with the Crawl-delay (ms) when robots.txt allows fetching `url`; otherwise throws
 * `robots_disallowed` (transient when robots.txt answered 5xx/429, so a later retry may pass).
 */
export async function requireRobotsAllowed(robots: RobotsPolicy, url: URL): Promise<number> {
  const verdict = await robots.check(url);
  if (verdict.allowed) return verdict.crawlDelayMs;
  throw verdict.reason === "unreachable"
    ? new FetchError("robots_disallowed", `robots.txt of ${url.origin} is unavailable; not fetching ${url.href}`, {
        transient: true,
      })
    : new FetchError("robots_disallowed", `robots.txt of ${url.origin} disallows ${url.href}`);
}

/** A network failure is rethrown (the page fails with the real cause) and not cached. */
async function loadRules(origin: string, options: RobotsPolicyOptions): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  const response = await options.fetcher.fetch(robotsUrl, {
    maxBytes: maxRobotsBytes,
    accept: "text/plain,*/*;q=0.5",
    truncate: true,
  });
  if (response.status >= 200 && response.status < 300) {
    const text = new TextDecoder("utf-8").decode(await collectBody(response.body));
    return { kind: "parsed", robots: robotsParser(robotsUrl, text) };
  }
  await response.discard();
  if (response.status === 429 || response.status >= 500) return { kind: "unreachable" };
  return { kind: "allow-all" };
}
