import { headerValue, parseContentType } from "./content-type.js";
import { parseCrawlUrl } from "./crawl-url.js";
import type { CrawlerServices } from "./crawler-settings.js";
import { FetchError, httpStatusError } from "../../network/fetch-error.js";
import type { GuardedResponse } from "./guarded-fetcher.js";
import { detectCharset } from "./page-charset.js";
import { collectBody } from "./response-body.js";
import { requireRobotsAllowed } from "./robots-policy.js";
import { decodeText } from "./text-decoding.js";

export type PageContentType = "text/html" | "application/xhtml+xml" | "text/plain";

/** A fetched page, decoded to text. The caller hashes and extracts it. */
export interface FetchedPage {
  /** The final URL, after redirects, without fragment. */
  url: string;
  status: number;
  contentType: PageContentType;
  /** The WHATWG name of the encoding the body was decoded with. */
  charset: string;
  body: string;
  /** Size of the (content-decoded) body in bytes. */
  bytes: number;
  redirects: number;
  /** The response's validators, kept so that the next sync can ask conditionally. */
  etag: string | null;
  lastModified: string | null;
}

/** What the page's last answer said about its version: sent back as `If-None-Match` / `If-Modified-Since`. */
export interface PageValidators {
  etag: string | null;
  lastModified: string | null;
}

/** A conditional fetch: the page unchanged since the validators (304), or fetched anew. */
export type RevalidatedPage = { kind: "not_modified" } | { kind: "fetched"; page: FetchedPage };

const pageAccept = "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.1";

/**
 * Fetches one page politely and safely: robots.txt first (for the URL and every redirect
 * target), then a slot of the host scheduler honouring Crawl-delay, then the guarded
 * fetch. Throws FetchError.
 */
export async function fetchPage(input: string, services: CrawlerServices): Promise<FetchedPage> {
  const result = await revalidatePage(input, services, { etag: null, lastModified: null });
  if (result.kind === "not_modified") throw httpStatusError(input, 304);
  return result.page;
}

/**
 * fetchPage with the page's stored validators: `If-None-Match` and `If-Modified-Since` are sent
 * when known, and a 304 answers `not_modified` (no body read). Same robots, scheduler and
 * address guard as any fetch.
 */
export async function revalidatePage(input: string, services: CrawlerServices, validators: PageValidators): Promise<RevalidatedPage> {
  const { fetcher, robots, scheduler, settings } = services;
  const url = parseCrawlUrl(input);
  const crawlDelayMs = await requireRobotsAllowed(robots, url);
  const conditional = {
    ...(validators.etag ? { "if-none-match": validators.etag } : {}),
    ...(validators.lastModified ? { "if-modified-since": validators.lastModified } : {}),
  };
  const asked = Object.keys(conditional).length > 0;

  return scheduler.run(url.hostname, crawlDelayMs, async (): Promise<RevalidatedPage> => {
    const response = await fetcher.fetch(url, {
      maxBytes: settings.maxPageBytes,
      accept: pageAccept,
      beforeRedirect: async (target) => {
        await requireRobotsAllowed(robots, target);
      },
      ...(asked ? { conditional } : {}),
    });
    if (asked && response.status === 304) {
      await response.discard();
      return { kind: "not_modified" };
    }
    return { kind: "fetched", page: await readPage(response) };
  });
}

async function readPage(response: GuardedResponse): Promise<FetchedPage> {
  const url = response.url.href;
  if (response.status < 200 || response.status > 299) {
    await response.discard();
    throw httpStatusError(url, response.status);
  }
  const declared = parseContentType(headerValue(response.headers, "content-type"));
  let contentType: PageContentType | undefined;
  if (declared !== undefined) {
    if (!isPageContentType(declared.mediaType)) {
      await response.discard();
      throw new FetchError("not_html", `${url} is ${declared.mediaType}, not an HTML or text page`);
    }
    contentType = declared.mediaType;
  }
  const bytes = await collectBody(response.body);
  contentType ??= sniffPageContentType(bytes, url);
  const charset = detectCharset(declared?.charset, bytes, contentType !== "text/plain");
  return {
    url,
    status: response.status,
    contentType,
    charset,
    body: decodeText(bytes, charset),
    bytes: bytes.length,
    redirects: response.redirects,
    etag: headerValue(response.headers, "etag") ?? null,
    lastModified: headerValue(response.headers, "last-modified") ?? null,
  };
}

function isPageContentType(mediaType: string): mediaType is PageContentType {
  return mediaType === "text/html" || mediaType === "application/xhtml+xml" || mediaType === "text/plain";
}

/** Without a Content-Type, only a body that plainly starts as HTML is taken. */
function sniffPageContentType(bytes: Buffer, url: string): PageContentType {
  const start = bytes.subarray(0, 512).toString("latin1").replace(/^\xEF\xBB\xBF/, "").trimStart().toLowerCase();
  if (/^<(!doctype html|html|head|body)[\s>]/.test(start)) return "text/html";
  throw new FetchError("not_html", `${url} has no Content-Type and does not look like HTML`);
}
