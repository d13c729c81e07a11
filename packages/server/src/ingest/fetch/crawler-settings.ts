import { systemResolver } from "../../network/guarded-agent.js";
import type { HostResolver } from "../../network/guarded-agent.js";
import type { GuardedFetcher } from "./guarded-fetcher.js";
import type { HostScheduler } from "./host-scheduler.js";
import type { RobotsPolicy } from "./robots-policy.js";

/** What a deployment (or a test) may tune; every field has a safe default. */
export interface CrawlerOptions {
  /** Sent with every request. */
  userAgent?: string;
  /** The product token matched against robots.txt `User-agent` lines. */
  robotsUserAgent?: string;
  connectTimeoutMs?: number;
  /** Deadline for a whole page response, redirects and body included. */
  responseTimeoutMs?: number;
  /** Deadline for one sitemap file (they may be 50 MB). */
  sitemapTimeoutMs?: number;
  maxRedirects?: number;
  maxPageBytes?: number;
  /** Cap on one uncompressed sitemap file. */
  maxSitemapBytes?: number;
  /** Lifts the SSRF guard entirely: tests and intranet deployments only. */
  allowPrivateNetworks?: boolean;
  /** Narrow exceptions to the SSRF guard (CIDRs or addresses). */
  allowedNetworks?: readonly string[];
  /** Resolves host names to every A/AAAA record; the system resolver by default. */
  resolve?: HostResolver;
  maxConcurrentPerHost?: number;
  /** How long a robots.txt stays cached (at most 24 hours). */
  robotsCacheTtlMs?: number;
  /** How long "robots.txt unreachable, everything disallowed" is remembered. */
  robotsUnreachableTtlMs?: number;
  /** Upper bound on an honoured Crawl-delay. */
  maxCrawlDelayMs?: number;
  /** Clock for the robots cache, injectable for tests. */
  now?: () => number;
}

export type CrawlerSettings = Required<CrawlerOptions>;

const dayMs = 24 * 60 * 60 * 1000;

export const defaultCrawlerSettings: CrawlerSettings = {
  userAgent: "FrontdeskBot/0.1 (+https://github.com/frontdesk/frontdesk)",
  robotsUserAgent: "FrontdeskBot",
  connectTimeoutMs: 5_000,
  responseTimeoutMs: 20_000,
  sitemapTimeoutMs: 60_000,
  maxRedirects: 5,
  maxPageBytes: 5 * 1024 * 1024,
  maxSitemapBytes: 50 * 1024 * 1024,
  allowPrivateNetworks: false,
  allowedNetworks: [],
  resolve: systemResolver,
  maxConcurrentPerHost: 2,
  robotsCacheTtlMs: dayMs,
  robotsUnreachableTtlMs: 10 * 60 * 1000,
  maxCrawlDelayMs: 60_000,
  now: Date.now,
};

/** Fills in defaults; the robots cache TTL is clamped to 24 hours as RFC 9309 asks. */
export function resolveCrawlerSettings(options: CrawlerOptions = {}): CrawlerSettings {
  const d = defaultCrawlerSettings;
  const robotsCacheTtlMs = Math.min(options.robotsCacheTtlMs ?? d.robotsCacheTtlMs, dayMs);
  return {
    userAgent: options.userAgent ?? d.userAgent,
    robotsUserAgent: options.robotsUserAgent ?? d.robotsUserAgent,
    connectTimeoutMs: options.connectTimeoutMs ?? d.connectTimeoutMs,
    responseTimeoutMs: options.responseTimeoutMs ?? d.responseTimeoutMs,
    sitemapTimeoutMs: options.sitemapTimeoutMs ?? d.sitemapTimeoutMs,
    maxRedirects: options.maxRedirects ?? d.maxRedirects,
    maxPageBytes: options.maxPageBytes ?? d.maxPageBytes,
    maxSitemapBytes: options.maxSitemapBytes ?? d.maxSitemapBytes,
    allowPrivateNetworks: options.allowPrivateNetworks ?? d.allowPrivateNetworks,
    allowedNetworks: options.allowedNetworks ?? d.allowedNetworks,
    resolve: options.resolve ?? d.resolve,
    maxConcurrentPerHost: options.maxConcurrentPerHost ?? d.maxConcurrentPerHost,
    robotsCacheTtlMs,
    robotsUnreachableTtlMs: Math.min(options.robotsUnreachableTtlMs ?? d.robotsUnreachableTtlMs, robotsCacheTtlMs),
    maxCrawlDelayMs: options.maxCrawlDelayMs ?? d.maxCrawlDelayMs,
    now: options.now ?? d.now,
  };
}

/** The long-lived parts one crawler shares between page and sitemap fetches. */
export interface CrawlerServices {
  settings: CrawlerSettings;
  fetcher: GuardedFetcher;
  robots: RobotsPolicy;
  scheduler: HostScheduler;
}
