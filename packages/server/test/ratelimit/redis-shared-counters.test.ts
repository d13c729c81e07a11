import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createRateLimiter } from "../../src/ratelimit/flexible-rate-limiter.js";
import type { LimitTable, RateLimiter } from "../../src/ratelimit/rate-limiter.js";
import { describeNeeding } from "../support/test-legs.js";

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const minute = (points: number) => ({ points, windowSeconds: 60 });
const limits: LimitTable = {
  initPerIpAndAgent: minute(10),
  initPerIp: null,
  session: minute(10),
  leads: minute(10),
  typing: minute(10),
  satisfaction: minute(10),
  coupon: minute(10),
  sources: minute(10),
  rulesPerIpAndAgent: null,
  wordpress: null,
  webhookTests: null,
  transcripts: null,
  transcriptsPerIp: null,
  attachments: null,
  loginPerIp: null,
  inboundMail: null,
  files: null,
};

describeNeeding("redis")("Redis counters", () => {
  let first: RateLimiter;
  let second: RateLimiter;
  beforeAll(async () => {
    first = await createRateLimiter(limits, redisUrl);
    second = await createRateLimiter(limits, redisUrl);
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it("happy: two limiters (as two processes) share one atomic count", async () => {
    expect(first.backend).toBe("redis");
    const key = randomUUID();
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, (_, i) => (i % 2 === 0 ? first : second).consume("typing", key)),
    );
    expect(outcomes.filter((outcome) => outcome?.allowed)).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome && !outcome.allowed)).toHaveLength(6);
    const remaining = outcomes.filter((outcome) => outcome?.allowed).map((outcome) => outcome!.remaining).sort((a, b) => a - b);
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("happy: FRONTDESK_REDIS_PREFIX begins every key, and limiters of two prefixes count apart", async () => {
    const prefix = `frontdesk-test-${randomUUID()}:`;
    const other = await createRateLimiter(limits, redisUrl, { redisPrefix: prefix });
    const inspector = new Redis(redisUrl);
    try {
      const key = randomUUID();
      for (let i = 0; i < 10; i += 1) await first.consume("typing", key);
      expect((await first.consume("typing", key))?.allowed).toBe(false);
      expect(await other.consume("typing", key)).toMatchObject({ allowed: true, remaining: 9 });
      expect(await inspector.keys(`${prefix}*`)).toEqual([`${prefix}rl:typing:${key}`]);
      expect(await inspector.keys(`frontdesk:rl:typing:${key}`)).toHaveLength(1);
    } finally {
      inspector.disconnect();
      await other.close();
    }
  });

  it("happy: a switched-off limit counts nothing", async () => {
    expect(await first.consume("initPerIp", randomUUID())).toBeNull();
  });

  it("error: with Redis unreachable the limiter keeps limiting in memory instead of failing requests", async () => {
    const offline = await createRateLimiter(limits, "redis://127.0.0.1:1");
    try {
      const key = randomUUID();
      const outcomes = [];
      for (let i = 0; i < 11; i += 1) outcomes.push(await offline.consume("typing", key));
      expect(outcomes.slice(0, 10).every((outcome) => outcome?.allowed)).toBe(true);
      expect(outcomes[10]?.allowed).toBe(false);
    } finally {
      await offline.close();
    }
  });
});
