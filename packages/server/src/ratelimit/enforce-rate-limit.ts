import type { FastifyReply } from "fastify";
import { AppError } from "../http/app-error.js";
import type { LimitName, RateLimiter, RateLimitOutcome } from "./rate-limiter.js";

export type LimitCheck = readonly [name: LimitName, key: string];

/** The outcome the headers should describe: a refusal first, else the tightest window. */
function tightest(outcomes: RateLimitOutcome[]): RateLimitOutcome | undefined {
  return [...outcomes].sort((a, b) => Number(a.allowed) - Number(b.allowed) || a.remaining - b.remaining)[0];
}

/**
 * Counts one request against each limit, writes the X-RateLimit-* headers on the reply and
 * throws `rate_limited` (with Retry-After) when a window is spent.
 */
export async function enforceRateLimit(limiter: RateLimiter, reply: FastifyReply, ...checks: LimitCheck[]): Promise<void> {
  // Every limit is counted, refused or not, so they are counted together (one round trip to Redis, auto-pipelined).
  const outcomes = (await Promise.all(checks.map(([name, key]) => limiter.consume(name, key)))).filter(
    (outcome): outcome is RateLimitOutcome => outcome !== null,
  );
  const shown = tightest(outcomes);
  if (!shown) return;
  reply.header("X-RateLimit-Limit", String(shown.limit));
  reply.header("X-RateLimit-Remaining", String(shown.remaining));
  reply.header("X-RateLimit-Reset", String(shown.resetAt));
  if (!shown.allowed) {
    throw new AppError("rate_limited", `Too many requests; retry in ${shown.retryAfterSeconds} seconds.`, undefined, {
      "Retry-After": String(shown.retryAfterSeconds),
    });
  }
}
