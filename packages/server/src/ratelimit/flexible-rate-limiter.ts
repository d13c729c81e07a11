import { Redis } from "ioredis";
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from "rate-limiter-flexible";
import type { WindowLimit } from "../config/rate-limits.js";
import type { LimitName, LimitTable, RateLimiter, RateLimitOutcome } from "./rate-limiter.js";

const KEY_PREFIX = "frontdesk:rl";

function outcomeOf(limit: WindowLimit, result: RateLimiterRes, allowed: boolean, now: number): RateLimitOutcome {
  const msBeforeNext = Math.max(0, result.msBeforeNext);
  return {
    allowed,
    limit: limit.points,
    remaining: Math.max(0, result.remainingPoints),
    resetAt: Math.ceil((now + msBeforeNext) / 1000),
    retryAfterSeconds: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  };
}

/**
 * Fixed-window limits counted by rate-limiter-flexible: in process memory, or in Redis
 * (atomic, shared by every process) with an in-memory insurance limiter if Redis is unreachable.
 */
export async function createRateLimiter(limits: LimitTable, redisUrl?: string): Promise<RateLimiter> {
  const redis = redisUrl
    ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true })
    : null;
  if (redis) {
    redis.on("error", () => undefined);
    // Until Redis answers, the insurance limiter counts in memory; ioredis keeps reconnecting.
    await redis.connect().catch(() => undefined);
  }

  const limiters = new Map<LimitName, { limit: WindowLimit; counter: RateLimiterAbstract }>();
  for (const [name, limit] of Object.entries(limits) as [LimitName, WindowLimit | null][]) {
    if (!limit) continue;
    const options = { points: limit.points, duration: limit.windowSeconds, keyPrefix: `${KEY_PREFIX}:${name}` };
    const memory = new RateLimiterMemory(options);
    const counter = redis ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: memory }) : memory;
    limiters.set(name, { limit, counter });
  }

  return {
    backend: redis ? "redis" : "memory",
    async consume(name, key) {
      const entry = limiters.get(name);
      if (!entry) return null;
      try {
        const result = await entry.counter.consume(key);
        return outcomeOf(entry.limit, result, true, Date.now());
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return outcomeOf(entry.limit, rejection, false, Date.now());
        throw rejection;
      }
    },
    async close() {
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
