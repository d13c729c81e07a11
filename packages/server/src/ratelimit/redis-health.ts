import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** After a failed command on a live connection, Redis is skipped this long before it is tried again. */
const COMMAND_FAILURE_PAUSE_MS = 5_000;

/** Whether Redis is in use now, and if not, why (for /healthz and /metrics). */
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
  /** What was done without Redis because it was not usable (requests counted in memory, events kept to this process). */
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

/** What is said about one use of Redis: logged once when it is lost and once when it is back, and given to /healthz meanwhile. */
export interface RedisHealthMessages {
  lost(address: string): string;
  recovered(address: string): string;
  unavailable(address: string, cause: string): string;
}

/** The rate limiter's words (the default). */
export const rateLimitRedisMessages: RedisHealthMessages = {
  lost: (address) => `Redis at ${address} is unreachable: rate limits are counted in this process's memory until it answers again`,
  recovered: (address) => `Redis at ${address} answers again: rate limits are shared again`,
  unavailable: (address, cause) => `Redis at ${address} is unreachable (${cause}): rate limits are counted per process`,
};

export interface WatchRedisOptions {
  logger?: Logger | undefined;
  messages?: RedisHealthMessages;
  /** A further condition of being up once connected (a subscriber's subscription in place, say); true by default. */
  inPlace?: () => boolean;
}

/**
 * Follows the ioredis connections of one use of Redis (the rate limiter's, the realtime fan-out's
 * publisher and subscriber, a realtime node's): logs the loss of Redis once (warn) and its recovery
 * once (info), whatever the number of requests or reconnection attempts in between, and says
 * whether it is up: every connection ready, nothing failed since, and `inPlace`. Starting (no
 * connection has failed yet, none ready yet) counts as up.
 */
export function watchRedisHealth(connections: Redis | readonly Redis[], redisUrl: string, options: WatchRedisOptions = {}): RedisHealth {
  const all: readonly Redis[] = Array.isArray(connections) ? connections : [connections as Redis];
  const messages = options.messages ?? rateLimitRedisMessages;
  const address = redisAddress(redisUrl);
  let lastError = "not connected yet";
  let lost: string | null = null;
  let pausedUntil = 0;
  let stopped = false;
  let connectedOnce = false;
  let errored = false;
  const fallbacks = { count: 0 };
  const ready = () => all.every((redis) => redis.status === "ready") && (options.inPlace?.() ?? true);

  const markLost = (cause: string) => {
    if (lost !== null || stopped) return;
    lost = cause;
    options.logger?.warn({ redis: address, cause }, messages.lost(address));
  };
  const markRecovered = () => {
    if (!ready()) return;
    connectedOnce = true;
    pausedUntil = 0;
    if (lost === null) return;
    options.logger?.info({ redis: address, fallbacks: fallbacks.count }, messages.recovered(address));
    lost = null;
  };

  for (const redis of all) {
    // This connection's error since it was last ready: a close with none (the server stopped) says so.
    let closeCause: string | null = null;
    redis.on("error", (error: Error) => {
      lastError = error.message;
      closeCause = error.message;
      errored = true;
    });
    redis.on("close", () => markLost(closeCause ?? (connectedOnce ? "connection closed" : lastError)));
    redis.on("ready", () => {
      closeCause = null;
      markRecovered();
    });
  }

  return {
    usable: () => ready() && Date.now() >= pausedUntil,
    succeeded: markRecovered,
    failed(error) {
      errored = true;
      pausedUntil = Date.now() + COMMAND_FAILURE_PAUSE_MS;
      markLost(messageOf(error));
    },
    status() {
      const starting = !connectedOnce && !errored;
      if (lost === null && (ready() || starting)) return { up: true };
      return { up: false, reason: messages.unavailable(address, lost ?? lastError) };
    },
    fallbacks,
    stop() {
      stopped = true;
    },
  };
}
