import type { Redis } from "ioredis";

/** How failures under one key turn into waits: the `free`-th failure starts a wait of `firstWaitMs`, each further one doubles it, up to `capMs`. */
export interface BackoffPolicy {
  free: number;
  firstWaitMs: number;
  capMs: number;
  /** A key with no failure for this long starts again from zero. */
  forgetAfterMs: number;
}

/** The failures counted under a key, and until when (ms since the epoch, on the caller's clock) attempts wait. */
export interface BackoffState {
  failures: number;
  blockedUntilMs: number;
}

/**
 * Consecutive failures per key with an exponential wait (sign-in's per account and IP, per
 * account). Unlike the fixed windows, times are the caller's (the service's clock), so a test moves
 * them; the store (memory or Redis) only keeps them. Keys that also need a remembered fact (an
 * address an account signed in from) use `remember` / `remembers`.
 */
export interface FailureBackoff {
  state(key: string, nowMs: number, policy: BackoffPolicy): Promise<BackoffState>;
  /** Counts one failure; the state after it. */
  fail(key: string, nowMs: number, policy: BackoffPolicy): Promise<BackoffState>;
  clear(key: string): Promise<void>;
  remember(key: string, nowMs: number, forMs: number): Promise<void>;
  remembers(key: string, nowMs: number): Promise<boolean>;
}

/** The wait after `failures` failures: none before `free` of them, then firstWait, twice it, … up to the cap. */
export function waitAfter(failures: number, policy: BackoffPolicy): number {
  const over = failures - policy.free;
  if (over < 0) return 0;
  return Math.min(policy.capMs, policy.firstWaitMs * 2 ** Math.min(over, 40));
}

interface Entry {
  failures: number;
  blockedUntilMs: number;
  lastMs: number;
}

/** Past this many keys the oldest are forgotten (an attacker inventing e-mails must not grow memory without bound). */
const MEMORY_KEYS = 100_000;

/** The counts in this process's memory (no Redis, or Redis unreachable). */
export function createMemoryFailureBackoff(): FailureBackoff {
  const entries = new Map<string, Entry>();
  const remembered = new Map<string, number>();
  const bounded = <V>(map: Map<string, V>, key: string, value: V) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > MEMORY_KEYS) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
  };
  const live = (key: string, nowMs: number, policy: BackoffPolicy): Entry | undefined => {
    const entry = entries.get(key);
    return entry && nowMs - entry.lastMs < policy.forgetAfterMs ? entry : undefined;
  };
  return {
    async state(key, nowMs, policy) {
      const entry = live(key, nowMs, policy);
      return { failures: entry?.failures ?? 0, blockedUntilMs: entry?.blockedUntilMs ?? 0 };
    },
    async fail(key, nowMs, policy) {
      const failures = (live(key, nowMs, policy)?.failures ?? 0) + 1;
      const wait = waitAfter(failures, policy);
      const entry = { failures, blockedUntilMs: wait > 0 ? nowMs + wait : 0, lastMs: nowMs };
      bounded(entries, key, entry);
      return { failures, blockedUntilMs: entry.blockedUntilMs };
    },
    async clear(key) {
      entries.delete(key);
    },
    async remember(key, nowMs, forMs) {
      bounded(remembered, key, nowMs + forMs);
    },
    async remembers(key, nowMs) {
      return (remembered.get(key) ?? 0) > nowMs;
    },
  };
}

/**
 * One failure, atomically: the count goes on unless the last failure is older than forgetAfter;
 * past the free ones the wait doubles. The hash keeps the caller's times; its TTL only tidies up.
 */
const FAIL_SCRIPT = `
local now = tonumber(ARGV[1])
local free = tonumber(ARGV[2])
local first = tonumber(ARGV[3])
local cap = tonumber(ARGV[4])
local forget = tonumber(ARGV[5])
local last = tonumber(redis.call('HGET', KEYS[1], 'l') or '0')
local failures = 0
if now - last < forget then failures = tonumber(redis.call('HGET', KEYS[1], 'f') or '0') end
failures = failures + 1
local blocked = 0
local over = failures - free
if over >= 0 then blocked = now + math.min(cap, first * math.pow(2, math.min(over, 40))) end
redis.call('HSET', KEYS[1], 'f', failures, 'u', blocked, 'l', now)
redis.call('PEXPIRE', KEYS[1], forget + cap)
return {failures, tostring(blocked)}
`;

/** The counts in Redis, shared by every process; `fallback` counts while Redis is not usable. */
export function createRedisFailureBackoff(redis: Redis, prefix: string, usable: () => boolean, fallback: FailureBackoff): FailureBackoff {
  const keyOf = (key: string) => `${prefix}backoff:${key}`;
  const rememberedOf = (key: string) => `${prefix}known:${key}`;
  async function shared<T>(work: () => Promise<T>, otherwise: () => Promise<T>): Promise<T> {
    if (!usable()) return otherwise();
    try {
      return await work();
    } catch {
      return otherwise();
    }
  }
  return {
    state: (key, nowMs, policy) =>
      shared(
        async () => {
          const [failures, blockedUntil, last] = await redis.hmget(keyOf(key), "f", "u", "l");
          if (last === null || nowMs - Number(last) >= policy.forgetAfterMs) return { failures: 0, blockedUntilMs: 0 };
          return { failures: Number(failures ?? 0), blockedUntilMs: Number(blockedUntil ?? 0) };
        },
        () => fallback.state(key, nowMs, policy),
      ),
    fail: (key, nowMs, policy) =>
      shared(
        async () => {
          const [failures, blockedUntil] = (await redis.eval(FAIL_SCRIPT, 1, keyOf(key), nowMs, policy.free, policy.firstWaitMs, policy.capMs, policy.forgetAfterMs)) as [number, string];
          return { failures: Number(failures), blockedUntilMs: Number(blockedUntil) };
        },
        () => fallback.fail(key, nowMs, policy),
      ),
    clear: (key) =>
      shared(
        async () => {
          await redis.del(keyOf(key));
          await fallback.clear(key);
        },
        () => fallback.clear(key),
      ),
    remember: (key, nowMs, forMs) =>
      shared(
        async () => {
          await redis.set(rememberedOf(key), String(nowMs + forMs), "PX", forMs);
        },
        () => fallback.remember(key, nowMs, forMs),
      ),
    remembers: (key, nowMs) =>
      shared(
        async () => Number((await redis.get(rememberedOf(key))) ?? 0) > nowMs,
        () => fallback.remembers(key, nowMs),
      ),
  };
}
