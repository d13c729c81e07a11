import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryFailureBackoff, waitAfter, type BackoffPolicy, type FailureBackoff } from "../../src/ratelimit/failure-backoff.js";
import { createRateLimiter } from "../../src/ratelimit/flexible-rate-limiter.js";
import type { LimitTable, RateLimiter } from "../../src/ratelimit/rate-limiter.js";
import { describeNeeding } from "../support/test-legs.js";

const POLICY: BackoffPolicy = { free: 3, firstWaitMs: 1000, capMs: 10_000, forgetAfterMs: 60_000 };
const T0 = Date.UTC(2026, 10, 28, 12);

it("happy: the wait starts after `free` failures, doubles, and stops at the cap", () => {
  expect([1, 2, 3, 4, 5, 6, 7, 8].map((failures) => waitAfter(failures, POLICY))).toEqual([0, 0, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  expect(waitAfter(10_000, POLICY)).toBe(10_000);
});

/** The same behaviour from each store, on the caller's clock. */
function backoffBehaviour(store: () => FailureBackoff) {
  it("happy: failures count on the caller's clock; the state says until when attempts wait", async () => {
    const key = randomUUID();
    const failures = store();
    for (const at of [0, 10, 20]) await failures.fail(key, T0 + at, POLICY);
    expect(await failures.state(key, T0 + 30, POLICY)).toEqual({ failures: 3, blockedUntilMs: T0 + 20 + 1000 });
    expect(await failures.fail(key, T0 + 2000, POLICY)).toEqual({ failures: 4, blockedUntilMs: T0 + 2000 + 2000 });
  });

  it("happy: clear starts again from zero; a key quiet for forgetAfter is forgotten", async () => {
    const failures = store();
    const key = randomUUID();
    for (let count = 0; count < 5; count += 1) await failures.fail(key, T0, POLICY);
    await failures.clear(key);
    expect(await failures.state(key, T0, POLICY)).toEqual({ failures: 0, blockedUntilMs: 0 });
    for (let count = 0; count < 5; count += 1) await failures.fail(key, T0, POLICY);
    expect((await failures.state(key, T0 + 59_999, POLICY)).failures).toBe(5);
    expect(await failures.state(key, T0 + 60_000, POLICY)).toEqual({ failures: 0, blockedUntilMs: 0 });
    expect(await failures.fail(key, T0 + 60_000, POLICY)).toEqual({ failures: 1, blockedUntilMs: 0 });
  });

  it("happy: remember keeps a fact until its time is up", async () => {
    const failures = store();
    const key = randomUUID();
    expect(await failures.remembers(key, T0)).toBe(false);
    await failures.remember(key, Date.now(), 60_000);
    expect(await failures.remembers(key, Date.now())).toBe(true);
    expect(await failures.remembers(key, Date.now() + 60_001)).toBe(false);
  });
}

describe("failure back-off in memory", () => backoffBehaviour(createMemoryFailureBackoff));

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const noLimits = Object.fromEntries(
  ["initPerIpAndAgent", "initPerIp", "session", "leads", "typing", "satisfaction", "coupon", "sources", "rulesPerIpAndAgent", "wordpress", "webhookTests", "transcripts", "transcriptsPerIp", "loginPerIp", "inboundMail"].map((name) => [name, null]),
) as unknown as LimitTable;

describeNeeding("redis")("failure back-off in Redis", () => {
  let first: RateLimiter;
  let second: RateLimiter;
  beforeAll(async () => {
    const prefix = `frontdesk-test-${randomUUID()}:`;
    first = await createRateLimiter(noLimits, redisUrl, { redisPrefix: prefix });
    second = await createRateLimiter(noLimits, redisUrl, { redisPrefix: prefix });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  backoffBehaviour(() => first.failures);

  it("happy: two processes share one count (atomic increments)", async () => {
    const key = randomUUID();
    await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? first : second).failures.fail(key, T0, POLICY)));
    expect(await second.failures.state(key, T0, POLICY)).toEqual({ failures: 10, blockedUntilMs: T0 + 10_000 });
  });
});
