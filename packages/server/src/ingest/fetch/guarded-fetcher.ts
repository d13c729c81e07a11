import { isIP } from "node:net";
import type { Agent } from "undici";
import { createAddressGuard } from "../../network/address-guard.js";
import type { AddressGuard } from "../../network/address-guard.js";
import { headerValue } from "./content-type.js";
import { parseCrawlUrl } from "./crawl-url.js";
import { FetchError } from "../../network/fetch-error.js";
import { createGuardedAgent } from "../../network/guarded-agent.js";
import type { HostResolver } from "../../network/guarded-agent.js";
import { toFetchError } from "./network-failure.js";
import { readCappedBody } from "./response-body.js";

export type ResponseHeaders = Record<string, string | string[] | undefined>;

export interface GuardedFetcherOptions {
  userAgent: string;
  connectTimeoutMs: number;
  /** Deadline for the whole response (every hop, headers and body). */
  responseTimeoutMs: number;
  maxRedirects: number;
  allowPrivateNetworks: boolean;
  allowedNetworks: readonly string[];
  resolve: HostResolver;
}

export interface GuardedRequest {
  /** Cap on the decoded body. */
  maxBytes: number;
  /** The `Accept` header. */
  accept: string;
  /** Overrides the fetcher's response deadline (large sitemaps). */
  timeoutMs?: number;
  /** Stop quietly at `maxBytes` instead of failing with `too_large`. */
  truncate?: boolean;
  /** Called before every hop after the first; may throw to refuse a redirect target (robots.txt). */
  beforeRedirect?: (url: URL) => Promise<void>;
  /** Conditional request headers (`if-none-match`, `if-modified-since`), sent on every hop. */
  conditional?: { "if-none-match"?: string; "if-modified-since"?: string };
}

export interface GuardedResponse {
  /** The final URL, after redirects. */
  url: URL;
  status: number;
  headers: ResponseHeaders;
  redirects: number;
  /** The decoded body, capped; must be consumed or discarded. */
  body: AsyncGenerator<Buffer, void, undefined>;
  discard(): Promise<void>;
}

/** The single way the crawler speaks HTTP: the SSRF guard, redirects, timeouts and caps in one place. */
export interface GuardedFetcher {
  fetch(url: string | URL, request: GuardedRequest): Promise<GuardedResponse>;
  close(): Promise<void>;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

export function createGuardedFetcher(options: GuardedFetcherOptions): GuardedFetcher {
  const guard = createAddressGuard(options);
  const agent = createGuardedAgent({ ...options, guard });
  return {
    fetch: async (url, request) => fetchFollowingRedirects(agent, guard, options, parseCrawlUrl(url), request),
    close: () => agent.close(),
  };
}

async function fetchFollowingRedirects(
  agent: Agent,
  guard: AddressGuard,
  options: GuardedFetcherOptions,
  firstUrl: URL,
  request: GuardedRequest,
): Promise<GuardedResponse> {
  const deadline = AbortSignal.timeout(request.timeoutMs ?? options.responseTimeoutMs);
  let url = firstUrl;
  for (let redirects = 0; ; redirects += 1) {
    if (redirects > 0) await request.beforeRedirect?.(url);
    assertLiteralAddressAllowed(url, guard);
    const response = await agent
      .request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "GET",
        headers: {
          "user-agent": options.userAgent,
          accept: request.accept,
          "accept-encoding": "gzip, deflate, br",
          ...request.conditional,
        },
        signal: deadline,
      })
      .catch((error: unknown) => {
        throw toFetchError(error, url.href, deadline.aborted);
      });
    const location = headerValue(response.headers, "location");
    if (redirectStatuses.has(response.statusCode) && location !== undefined) {
      await response.body.dump().catch(() => undefined);
      if (redirects >= options.maxRedirects) {
        throw new FetchError("fetch_failed", `more than ${options.maxRedirects} redirects from ${firstUrl.href}`);
      }
      url = parseCrawlUrl(location, url);
      continue;
    }
    const finalUrl = url;
    const declaredLength = Number(headerValue(response.headers, "content-length"));
    return {
      url: finalUrl,
      status: response.statusCode,
      headers: response.headers,
      redirects,
      body: readCappedBody({
        raw: response.body,
        contentEncoding: headerValue(response.headers, "content-encoding"),
        declaredLength: Number.isFinite(declaredLength) ? declaredLength : undefined,
        maxBytes: request.maxBytes,
        truncate: request.truncate ?? false,
        url: finalUrl.href,
        describeFailure: (error) => toFetchError(error, finalUrl.href, deadline.aborted),
      }),
      discard: () => response.body.dump().catch(() => undefined),
    };
  }
}

/** Host names are checked inside the agent's lookup; IP literals never reach a lookup. */
function assertLiteralAddressAllowed(url: URL, guard: AddressGuard): void {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) === 0) return;
  const verdict = guard.verdict(host);
  if (!verdict.allowed) throw new FetchError("blocked_address", `${url.host} is not allowed (${verdict.reason})`);
}
