export interface RetryDelayOptions {
  baseDelayMs: number;
  maxDelayMs: number;
  /** The server's Retry-After header (seconds or an HTTP date), when it sent one. */
  retryAfter: string | null;
}

function retryAfterMs(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1_000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Exponential back-off with jitter (half fixed, half random) for retry number `attempt`
 * (0 for the first retry). A server's Retry-After wins when it asks for longer; both are capped.
 */
export function retryDelayMs(attempt: number, options: RetryDelayOptions): number {
  const exponential = options.baseDelayMs * 2 ** attempt;
  const jittered = exponential / 2 + (Math.random() * exponential) / 2;
  const requested = retryAfterMs(options.retryAfter) ?? 0;
  return Math.min(options.maxDelayMs, Math.max(jittered, requested));
}
