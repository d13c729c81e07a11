import { headerValue, parseContentType } from "./content-type.js";
import { parseCrawlUrl } from "./crawl-url.js";
import type { CrawlerServices } from "./crawler-settings.js";
import { FetchError, httpStatusError } from "../../network/fetch-error.js";
import type { FetchErrorCode } from "../../network/fetch-error.js";
import { requireRobotsAllowed } from "./robots-policy.js";
import { parseSitemapStream } from "./sitemap-parser.js";

export interface SitemapLimits {
  /** Cap on page URLs gathered from one sitemap source, all files together. */
  maxPages?: number;
  /** How deep sitemap indexes may nest below the first file. */
  maxDepth?: number;
  /** Cap on sitemap files read for one source. */
  maxSitemapFiles?: number;
  /** Entries read from one file; the protocol allows 50,000. */
  maxEntriesPerFile?: number;
}

export interface SitemapFailure {
  url: string;
  code: FetchErrorCode;
  message: string;
}

export interface SitemapDiscovery {
  /** Page URLs on the sitemap's own host, deduplicated, in document order. */
  urls: string[];
  sitemapsRead: number;
  /** Entries (pages or nested sitemaps) dropped for naming another host. */
  skippedForeignHost: number;
  /** True when a cap cut the discovery short. */
  truncated: boolean;
  /** Nested sitemaps that could not be read; the first file's failure is thrown instead. */
  failures: SitemapFailure[];
}

const defaultLimits: Required<SitemapLimits> = {
  maxPages: 5_000,
  maxDepth: 3,
  maxSitemapFiles: 200,
  maxEntriesPerFile: 50_000,
};

const sitemapMediaTypes = new Set([
  "application/xml",
  "text/xml",
  "application/gzip",
  "application/x-gzip",
  "application/octet-stream",
]);

const sitemapAccept = "application/xml,text/xml;q=0.9,application/gzip;q=0.8,*/*;q=0.1";

interface Discovery {
  services: CrawlerServices;
  limits: Required<SitemapLimits>;
  /** The sitemap's own host: the requested one and where its first file really lives. */
  hosts: Set<string>;
  pages: Set<string>;
  visited: Set<string>;
  result: SitemapDiscovery;
}

/**
 * Gathers the page URLs of a sitemap source: a `urlset`, or a `sitemapindex` read
 * recursively, each file fetched through the guarded fetcher (robots.txt, SSRF guard,
 * host scheduler) and parsed as a stream. URLs on other hosts are dropped.
 */
export async function discoverSitemapUrls(
  sitemapUrl: string,
  services: CrawlerServices,
  limits: SitemapLimits = {},
): Promise<SitemapDiscovery> {
  const root = parseCrawlUrl(sitemapUrl);
  const discovery: Discovery = {
    services,
    limits: {
      maxPages: limits.maxPages ?? defaultLimits.maxPages,
      maxDepth: limits.maxDepth ?? defaultLimits.maxDepth,
      maxSitemapFiles: limits.maxSitemapFiles ?? defaultLimits.maxSitemapFiles,
      maxEntriesPerFile: limits.maxEntriesPerFile ?? defaultLimits.maxEntriesPerFile,
    },
    hosts: new Set([root.hostname]),
    pages: new Set(),
    visited: new Set(),
    result: { urls: [], sitemapsRead: 0, skippedForeignHost: 0, truncated: false, failures: [] },
  };
  await readSitemap(discovery, root, 0);
  discovery.result.urls = [...discovery.pages];
  return discovery.result;
}

async function readSitemap(discovery: Discovery, url: URL, depth: number): Promise<void> {
  const { services, limits, result } = discovery;
  if (discovery.visited.has(url.href)) return;
  if (discovery.visited.size >= limits.maxSitemapFiles) {
    result.truncated = true;
    return;
  }
  discovery.visited.add(url.href);
  const crawlDelayMs = await requireRobotsAllowed(services.robots, url);

  const children: URL[] = [];
  await services.scheduler.run(url.hostname, crawlDelayMs, async () => {
    // One byte past the cap is let through so the parser can tell "cut short" from "exactly full".
    const response = await services.fetcher.fetch(url, {
      maxBytes: services.settings.maxSitemapBytes + 1,
      truncate: true,
      accept: sitemapAccept,
      timeoutMs: services.settings.sitemapTimeoutMs,
      beforeRedirect: async (target) => {
        await requireRobotsAllowed(services.robots, target);
      },
    });
    if (depth === 0) discovery.hosts.add(response.url.hostname);
    const where = response.url.href;
    if (response.status < 200 || response.status > 299) {
      await response.discard();
      throw httpStatusError(where, response.status);
    }
    const mediaType = parseContentType(headerValue(response.headers, "content-type"))?.mediaType;
    if (mediaType !== undefined && !sitemapMediaTypes.has(mediaType) && !mediaType.endsWith("+xml")) {
      await response.discard();
      throw new FetchError("invalid_sitemap", `${where} is ${mediaType}, not a sitemap`);
    }
    const parsed = await parseSitemapStream(
      response.body,
      {
        onPage: (loc) => addPage(discovery, loc),
        onSitemap: (loc) => addChild(discovery, loc, depth, children),
      },
      { maxEntries: limits.maxEntriesPerFile, maxBytes: services.settings.maxSitemapBytes },
      where,
    );
    result.sitemapsRead += 1;
    if (parsed.stoppedEarly) result.truncated = true;
  });

  for (const child of children) {
    if (discovery.pages.size >= limits.maxPages) {
      result.truncated = true;
      break;
    }
    try {
      await readSitemap(discovery, child, depth + 1);
    } catch (error) {
      if (!(error instanceof FetchError)) throw error;
      result.failures.push({ url: child.href, code: error.code, message: error.message });
    }
  }
}

function addPage(discovery: Discovery, loc: string): boolean {
  const url = ownHostUrl(discovery, loc);
  if (url === undefined) return true;
  if (discovery.pages.has(url.href)) return true;
  if (discovery.pages.size >= discovery.limits.maxPages) {
    discovery.result.truncated = true;
    return false;
  }
  discovery.pages.add(url.href);
  return true;
}

function addChild(discovery: Discovery, loc: string, depth: number, children: URL[]): boolean {
  const url = ownHostUrl(discovery, loc);
  if (url === undefined) return true;
  if (depth + 1 > discovery.limits.maxDepth) discovery.result.truncated = true;
  else children.push(url);
  return true;
}

/** Parses a `<loc>`; entries that are not http(s) URLs are ignored, other hosts are counted and dropped. */
function ownHostUrl(discovery: Discovery, loc: string): URL | undefined {
  let url: URL;
  try {
    url = parseCrawlUrl(loc);
  } catch {
    return undefined;
  }
  if (discovery.hosts.has(url.hostname)) return url;
  discovery.result.skippedForeignHost += 1;
  return undefined;
}
