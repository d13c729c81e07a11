import type { CrawlerOptions, CrawlerServices } from "./crawler-settings.js";
import { resolveCrawlerSettings } from "./crawler-settings.js";
import { fetchPage, revalidatePage } from "./fetch-page.js";
import type { FetchedPage, PageValidators, RevalidatedPage } from "./fetch-page.js";
import { createGuardedFetcher } from "./guarded-fetcher.js";
import { createHostScheduler } from "./host-scheduler.js";
import { createRobotsPolicy } from "./robots-policy.js";
import { discoverSitemapUrls } from "./sitemap-reader.js";
import type { SitemapDiscovery, SitemapLimits } from "./sitemap-reader.js";

/** The crawler's fetch layer as the ingestion jobs use it. Errors are FetchError. */
export interface Crawler {
  fetchPage(url: string): Promise<FetchedPage>;
  /** A conditional fetch with the page's stored validators (a re-sync): 304 is `not_modified`. */
  revalidatePage(url: string, validators: PageValidators): Promise<RevalidatedPage>;
  discoverSitemapUrls(sitemapUrl: string, limits?: SitemapLimits): Promise<SitemapDiscovery>;
  /** Closes pooled connections. */
  close(): Promise<void>;
}

/**
 * Builds one crawler per process (or per test): a guarded connection pool, a robots.txt
 * cache and a host scheduler shared by every page and sitemap fetch.
 */
export function createCrawler(options: CrawlerOptions = {}): Crawler {
  const settings = resolveCrawlerSettings(options);
  const fetcher = createGuardedFetcher(settings);
  const services: CrawlerServices = {
    settings,
    fetcher,
    robots: createRobotsPolicy({
      fetcher,
      userAgentToken: settings.robotsUserAgent,
      ttlMs: settings.robotsCacheTtlMs,
      unreachableTtlMs: settings.robotsUnreachableTtlMs,
      maxCrawlDelayMs: settings.maxCrawlDelayMs,
      now: settings.now,
    }),
    scheduler: createHostScheduler({ maxConcurrentPerHost: settings.maxConcurrentPerHost }),
  };
  return {
    fetchPage: (url) => fetchPage(url, services),
    revalidatePage: (url, validators) => revalidatePage(url, services, validators),
    discoverSitemapUrls: (sitemapUrl, limits) => discoverSitemapUrls(sitemapUrl, services, limits),
    close: () => fetcher.close(),
  };
}
