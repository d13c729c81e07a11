/** Why a crawl fetch failed. The codes are stable: the job layer and the console read them. */
export type FetchErrorCode =
  | "invalid_url"
  | "blocked_address"
  | "robots_disallowed"
  | "fetch_failed"
  | "http_status"
  | "not_html"
  | "too_large"
  | "invalid_sitemap";

export interface FetchErrorOptions {
  /** True when retrying later may succeed (timeouts, resets, 5xx, 429). */
  transient?: boolean;
  /** The final HTTP status, for `http_status`. */
  status?: number;
  cause?: unknown;
}

/** The one error class of the fetch layer. */
export class FetchError extends Error {
  readonly transient: boolean;
  readonly status: number | undefined;

  constructor(
    readonly code: FetchErrorCode,
    message: string,
    options: FetchErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "FetchError";
    this.transient = options.transient ?? false;
    this.status = options.status;
  }
}

/** A non-2xx final status; 408, 429 and 5xx are worth retrying later. */
export function httpStatusError(url: string, status: number): FetchError {
  return new FetchError("http_status", `${url} answered HTTP ${status}`, {
    status,
    transient: status === 408 || status === 429 || status >= 500,
  });
}
