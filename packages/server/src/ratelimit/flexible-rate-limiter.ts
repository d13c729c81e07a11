import { Redis } from "ioredis";
import type { Logger } from "pino";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { WindowLimit } from "../config/rate-limits.js";
import type { LimitName, LimitTable, RateLimiter, RateLimitOutcome } from "./rate-limiter.js";
import { watchRedisHealth, type RedisHealth } from "./redis-health.js";
import { createMemoryFailureBackoff, createRedisFailureBackoff } from "./failure-backoff.js";

/** A Redis that stalls must not stall visitors' requests: past this, the request is counted in memory. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;

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

interface Counters {
  limit: WindowLimit;
  memory: RateLimiterAbstract;
  shared: RateLimiterAbstract | null;
}

export interface RateLimiterOptions {
  /** Told once when Redis is lost and once when it is back. */
  logger?: Logger;
  /** Begins every Redis key (FRONTDESK_REDIS_PREFIX); `frontdesk:` by default. */
  redisPrefix?: string;
}

/**
 * Fixed-window limits counted by rate-limiter-flexible: in process memory, or in Redis (atomic,
 * shared by every process). While Redis is unreachable each process counts in its own memory
 * (see ARCHITECTURE.md, "Rate limits when Redis is down"); ioredis keeps reconnecting.
 */
export async function createRateLimiter(limits: LimitTable, redisUrl?: string, options: RateLimiterOptions = {}): Promise<RateLimiter> {
  const redis = redisUrl
    ? new Redis(redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        lazyConnect: true,
        connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
        commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
        // The requests counted in one tick share one write to Redis (and one read of the replies).
        enableAutoPipelining: true,
      })
    : null;
  let health: RedisHealth | null = null;
  if (redis && redisUrl) {
    health = watchRedisHealth(redis, redisUrl, { logger: options.logger });
    await redis.connect().catch(() => undefined);
  }

  const counters = new Map<LimitName, Counters>();
  for (const [name, limit] of Object.entries(limits) as [LimitName, WindowLimit | null][]) {
    if (!limit) continue;
    const settings = { points: limit.points, duration: limit.windowSeconds, keyPrefix: `${options.redisPrefix ?? "frontdesk:"}rl:${name}` };
    counters.set(name, {
      limit,
      memory: new RateLimiterMemory(settings),
      shared: redis ? new RateLimiterRedis({ ...settings, storeClient: redis }) : null,
    });
  }

  /** Counts in Redis when it is usable, else in memory; a refusal is a RateLimiterRes thrown. */
  async function count(entry: Counters, key: string): Promise<RateLimiterRes> {
    if (entry.shared && health?.usable()) {
      try {
        const result = await entry.shared.consume(key);
        health.succeeded();
        return result;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          health.succeeded();
          throw rejection;
        }
        health.failed(rejection);
      }
    }
    if (health) health.fallbacks.count += 1;
    return entry.memory.consume(key);
  }

  const memoryFailures = createMemoryFailureBackoff();
  const failures =
    redis && health
      ? createRedisFailureBackoff(redis, `${options.redisPrefix ?? "frontdesk:"}rl:`, () => health?.usable() ?? false, memoryFailures)
      : memoryFailures;

  return {
    backend: redis ? "redis" : "memory",
    failures,
    status() {
      if (!health) return { backend: "memory", shared: false, degraded: false, fallbacks: 0 };
      const redisStatus = health.status();
      return {
        backend: "redis",
        shared: redisStatus.up,
        degraded: !redisStatus.up,
        ...(redisStatus.reason ? { reason: redisStatus.reason } : {}),
        fallbacks: health.fallbacks.count,
      };
    },
    async consume(name, key) {
      const entry = counters.get(name);
      if (!entry) return null;
      try {
        return outcomeOf(entry.limit, await count(entry, key), true, Date.now());
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return outcomeOf(entry.limit, rejection, false, Date.now());
        throw rejection;
      }
    },
    async close() {
      health?.stop();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
