import type { RateLimits, WindowLimit } from "../config/rate-limits.js";
import type { FailureBackoff } from "./failure-backoff.js";

export type LimitName = keyof RateLimits;

/** What one counted request learns about its window; enough to write the X-RateLimit-* headers. */
export interface RateLimitOutcome {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the window resets. */
  resetAt: number;
  /** Whole seconds to wait, when refused. */
  retryAfterSeconds: number;
}

/** Where the counts live right now, for /healthz and /metrics. */
export interface RateLimiterStatus {
  backend: "memory" | "redis";
  /** True when every process counts in Redis; false when counts are per process. */
  shared: boolean;
  /** Redis is configured but unreachable: counting fell back to this process's memory. */
  degraded: boolean;
  reason?: string;
  /** Requests counted in process memory because Redis was unreachable (0 without Redis). */
  fallbacks: number;
}

/** Fixed-window counters keyed by limiter name and key; memory or Redis behind it. */
export interface RateLimiter {
  readonly backend: "memory" | "redis";
  status(): RateLimiterStatus;
  consume(name: LimitName, key: string): Promise<RateLimitOutcome | null>;
  /** Failures with exponential waits on the caller's clock (sign-in), in the same store as the windows. */
  readonly failures: FailureBackoff;
  close(): Promise<void>;
}

export type LimitTable = { [Name in LimitName]: WindowLimit | null };
