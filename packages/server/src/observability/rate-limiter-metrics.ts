import { Counter, Gauge, type Registry } from "prom-client";
import type { RateLimiter } from "../ratelimit/rate-limiter.js";

/**
 * With FRONTDESK_REDIS_URL: whether rate limits are shared through Redis right now, and how many
 * requests were counted per process instead. Without it there is nothing to report.
 */
export function registerRateLimiterMetrics(registry: Registry, limiter: RateLimiter): void {
  if (limiter.backend !== "redis") return;
  new Gauge({
    name: "frontdesk_rate_limiter_redis_up",
    help: "1 while the rate limits are counted in Redis (shared by every process), 0 while Redis is unreachable and each process counts alone.",
    registers: [registry],
    collect() {
      this.set(limiter.status().shared ? 1 : 0);
    },
  });
  const reported = { fallbacks: 0 };
  new Counter({
    name: "frontdesk_rate_limiter_memory_fallbacks_total",
    help: "Requests counted in this process's memory because Redis was unreachable.",
    registers: [registry],
    collect() {
      const { fallbacks } = limiter.status();
      this.inc(fallbacks - reported.fallbacks);
      reported.fallbacks = fallbacks;
    },
  });
}
