import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** After a failed command on a live connection, Redis is skipped this long before it is tried again. */
const COMMAND_FAILURE_PAUSE_MS = 5_000;

/** Whether the shared counters are in use, and if not, why (for /healthz and /metrics). */
export interface RedisHealthStatus {
  up: boolean;
  reason?: string;
}

export interface RedisHealth {
  /** True when a command should be sent to Redis now. */
  usable(): boolean;
  /** A command answered: Redis is back if it was lost. */
  succeeded(): void;
  /** A command failed (or timed out) on a connection ioredis still thinks is open. */
  failed(error: unknown): void;
  status(): RedisHealthStatus;
  /** Requests counted in process memory because Redis was not usable. */
  readonly fallbacks: { count: number };
  /** The connection is being closed on purpose: its closing is no loss. */
  stop(): void;
}

/** `host:port` of a Redis URL: never the password a URL may carry. */
export function redisAddress(redisUrl: string): string {
  const url = new URL(redisUrl);
  return `${url.hostname}:${url.port || "6379"}`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Follows one ioredis connection: logs the loss of Redis once (warn) and its recovery once (info),
 * whatever the number of requests or reconnection attempts in between.
 */
export function watchRedisHealth(redis: Redis, redisUrl: string, logger?: Logger): RedisHealth {
  const address = redisAddress(redisUrl);
  let lastError = "not connected yet";
  let lost: string | null = null;
  let pausedUntil = 0;
  let stopped = false;
  const fallbacks = { count: 0 };

  const markLost = (cause: string) => {
    if (lost !== null || stopped) return;
    lost = cause;
    logger?.warn(
      { redis: address, cause },
      `Redis at ${address} is unreachable: rate limits are counted in this process's memory until it answers again`,
    );
  };
  const markRecovered = () => {
    pausedUntil = 0;
    if (lost === null) return;
    logger?.info({ redis: address, fallbacks: fallbacks.count }, `Redis at ${address} answers again: rate limits are shared again`);
    lost = null;
  };

  redis.on("error", (error: Error) => {
    lastError = error.message;
  });
  redis.on("close", () => markLost(lastError));
  redis.on("ready", markRecovered);

  return {
    usable: () => redis.status === "ready" && Date.now() >= pausedUntil,
    succeeded: markRecovered,
    failed(error) {
      pausedUntil = Date.now() + COMMAND_FAILURE_PAUSE_MS;
      markLost(messageOf(error));
    },
    status() {
      if (lost === null && redis.status === "ready") return { up: true };
      const cause = lost ?? lastError;
      return { up: false, reason: `Redis at ${address} is unreachable (${cause}): rate limits are counted per process` };
    },
    fallbacks,
    stop() {
      stopped = true;
    },
  };
}
