import { afterAll, beforeAll, expect, it } from "vitest";
import { Redis } from "ioredis";
import { capturedLogger, LOG_LEVELS, type LogLine } from "../support/captured-log.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore, legsOfStore, storeKinds } from "../support/test-database.js";
import { describeEachNeeding, describeNeeding } from "../support/test-legs.js";
import { createRateLimiter } from "../../src/ratelimit/flexible-rate-limiter.js";
import { ThrowawayRedis, unusedPort } from "../support/throwaway-redis.js";

const machineRedisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** Limits small enough to spend in a test: the typing limit is 5 a minute. */
const limits = { FRONTDESK_RATE_LIMIT_TYPING_PER_MINUTE: "5" };

async function until<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const health = async (t: TestApp) => {
  const response = await t.app.inject({ method: "GET", url: "/healthz" });
  return { statusCode: response.statusCode, body: response.json() as Record<string, unknown> & { status: string; rate_limiter: Record<string, unknown> } };
};
const metric = async (t: TestApp, name: string) => {
  const text = (await t.app.inject({ method: "GET", url: "/metrics" })).body;
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
};
/** Typing from one visitor (one IP): the 6th in a minute is refused when limits are counted. */
const typing = async (t: TestApp, ip: string) =>
  (await t.app.inject({ method: "POST", url: "/api/v1/widget/typing", remoteAddress: ip })).statusCode;
const redisLines = (lines: LogLine[], level: number) => lines.filter((line) => line.level === level && String(line.msg).startsWith("Redis at"));

describeEachNeeding(storeKinds, (kind) => [...legsOfStore(kind), "redis"])("Redis for rate limits on %s", (kind) => {
  it("happy: with Redis answering, /healthz is ok and says the limits are shared", async () => {
    const t = await createTestApp(kind, { FRONTDESK_REDIS_URL: machineRedisUrl });
    try {
      const { statusCode, body } = await health(t);
      expect(statusCode).toBe(200);
      expect(body.status).toBe("ok");
      expect(body).not.toHaveProperty("reasons");
      expect(body.rate_limiter).toEqual({ backend: "redis", shared: true, degraded: false });
      expect(body.realtime).toMatchObject({ driver: "embedded", degraded: false });
      expect(await metric(t, "frontdesk_rate_limiter_redis_up")).toBe(1);
    } finally {
      await t.close();
    }
  }, 90_000);

  it("error: Redis unreachable from the start: degraded from the start, said once, limits counted in this process", async () => {
    const port = await unusedPort();
    const { logger, lines } = capturedLogger();
    const t = await createTestApp(kind, { FRONTDESK_REDIS_URL: `redis://:hunter2@127.0.0.1:${port}`, ...limits }, { logger });
    try {
      const { statusCode, body } = await health(t);
      expect(statusCode).toBe(200);
      expect(body.status).toBe("degraded");
      expect(body.rate_limiter).toMatchObject({ backend: "redis", shared: false, degraded: true });
      const reason = String(body.rate_limiter.reason);
      expect(reason).toContain(`Redis at 127.0.0.1:${port} is unreachable`);
      expect(reason).toContain("counted per process");
      expect(reason).not.toContain("hunter2");
      expect(body.reasons).toContain(reason);
      // Realtime says the same of its own Redis connection, also without the password.
      const realtime = await until(() => health(t), (h) => (h.body.realtime as { degraded: boolean }).degraded, "realtime degraded from the start");
      expect(realtime.body.reasons).toHaveLength(2);
      expect(JSON.stringify(realtime.body)).not.toContain("hunter2");
      // Fail open, but bounded: this process still counts, and refuses the 6th.
      const statuses = [];
      for (let i = 0; i < 6; i += 1) statuses.push(await typing(t, "203.0.113.9"));
      expect(statuses).toEqual([204, 204, 204, 204, 204, 429]);
      expect(await metric(t, "frontdesk_rate_limiter_redis_up")).toBe(0);
      expect(await metric(t, "frontdesk_rate_limiter_memory_fallbacks_total")).toBe(6);
      // ioredis keeps retrying in the background; the loss is still told once.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(redisLines(lines, LOG_LEVELS.warn)).toHaveLength(1);
      expect(redisLines(lines, LOG_LEVELS.warn)[0]).toMatchObject({ redis: `127.0.0.1:${port}`, cause: expect.stringContaining("ECONNREFUSED") });
      expect(redisLines(lines, LOG_LEVELS.info)).toHaveLength(0);
    } finally {
      await t.close();
    }
    // Closing on purpose is no loss.
    expect(redisLines(lines, LOG_LEVELS.warn)).toHaveLength(1);
  }, 90_000);

  it("error: Redis lost while serving and back again: one warning, one recovery line, /healthz and /metrics follow", async () => {
    const redis = await ThrowawayRedis.start();
    const { logger, lines } = capturedLogger();
    const t = await createTestApp(kind, { FRONTDESK_REDIS_URL: redis.url, ...limits }, { logger });
    const inspector = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 200 });
    inspector.on("error", () => undefined);
    try {
      expect((await health(t)).body.status).toBe("ok");
      expect(await typing(t, "203.0.113.10")).toBe(204);
      await inspector.connect();
      expect(await inspector.keys("frontdesk:rl:typing:*")).toHaveLength(1);

      await redis.kill();
      const degraded = await until(() => health(t), (h) => h.body.status === "degraded", "degraded after the kill");
      expect(degraded.statusCode).toBe(200);
      expect(String(degraded.body.rate_limiter.reason)).toContain(`Redis at 127.0.0.1:${redis.port} is unreachable`);
      // Realtime events and presence lost the other processes too, and /healthz says so.
      // The fan-out's connections may notice first (events only); the node's reason follows and covers it.
      const realtimeLost = await until(
        () => health(t),
        (h) => String((h.body.realtime as { reason?: string }).reason).includes("presence, channel counts and events are this process's own"),
        "realtime degraded after the kill",
      );
      expect(realtimeLost.body.realtime).toMatchObject({ driver: "embedded", shared: false, degraded: true, reason: expect.stringContaining("presence, channel counts and events are this process's own") });
      expect(realtimeLost.body.reasons).toContain((realtimeLost.body.realtime as { reason: string }).reason);
      expect(await metric(t, "frontdesk_rate_limiter_redis_up")).toBe(0);
      const duringOutage = [];
      for (let i = 0; i < 6; i += 1) duringOutage.push(await typing(t, "203.0.113.11"));
      expect(duringOutage).toEqual([204, 204, 204, 204, 204, 429]);

      await redis.restart();
      const recovered = await until(() => health(t), (h) => h.body.status === "ok", "ok after the restart");
      expect(recovered.body.rate_limiter).toEqual({ backend: "redis", shared: true, degraded: false });
      expect(recovered.body.realtime).toEqual({ driver: "embedded", shared: true, degraded: false });
      expect(await metric(t, "frontdesk_rate_limiter_redis_up")).toBe(1);
      // Counted in Redis again (the restarted server kept nothing).
      expect(await typing(t, "203.0.113.12")).toBe(204);
      await until(() => inspector.keys("frontdesk:rl:typing:*").catch(() => []), (keys) => keys.length === 1, "a shared count");

      expect(redisLines(lines, LOG_LEVELS.warn)).toHaveLength(1);
      expect(redisLines(lines, LOG_LEVELS.info)).toHaveLength(1);
      expect(redisLines(lines, LOG_LEVELS.info)[0]!.msg).toContain("answers again");
    } finally {
      inspector.disconnect();
      await t.close();
      await redis.kill();
    }
  }, 120_000);
});

describeNeeding("redis")("a Redis that stalls", () => {
  it("error: a frozen Redis (connection open, nothing answered) is reported and skipped, and the limits keep counting in memory", async () => {
    const redis = await ThrowawayRedis.start();
    const { logger, lines } = capturedLogger();
    const minute = (points: number) => ({ points, windowSeconds: 60 });
    const limiter = await createRateLimiter(
      { initPerIpAndAgent: null, initPerIp: null, session: null, leads: null, typing: minute(3), satisfaction: null, coupon: null, sources: null, rulesPerIpAndAgent: null, wordpress: null, webhookTests: null, transcripts: null, transcriptsPerIp: null, attachments: null, loginPerIp: null, inboundMail: null, files: null },
      redis.url,
      { logger },
    );
    try {
      expect((await limiter.consume("typing", "visitor"))?.allowed).toBe(true);
      redis.pause();
      const duringStall = [];
      for (let i = 0; i < 4; i += 1) duringStall.push((await limiter.consume("typing", "stalled-visitor"))?.allowed);
      expect(duringStall).toEqual([true, true, true, false]);
      expect(limiter.status()).toMatchObject({ backend: "redis", shared: false, degraded: true, reason: expect.stringContaining("timed out") });
      expect(limiter.status().fallbacks).toBe(4);
      expect(redisLines(lines, LOG_LEVELS.warn)).toHaveLength(1);

      redis.resume();
      // Skipped for a few seconds after the timeout, then tried again: the first answer is the recovery.
      await until(async () => (await limiter.consume("typing", `visitor-${Date.now()}`), limiter.status()), (status) => status.shared, "shared again");
      expect(redisLines(lines, LOG_LEVELS.info)).toHaveLength(1);
    } finally {
      redis.resume();
      await limiter.close();
      await redis.kill();
    }
  }, 30_000);
});

describeEachStore("without Redis on %s", (kind) => {
  it("happy: limits are per process by configuration, which is not a degradation; no Redis metric is shown", async () => {
    const t = await createTestApp(kind);
    try {
      const { statusCode, body } = await health(t);
      expect(statusCode).toBe(200);
      expect(body.rate_limiter).toEqual({ backend: "memory", shared: false, degraded: false });
      expect(body.status).toBe("ok");
      expect(await metric(t, "frontdesk_rate_limiter_redis_up")).toBeUndefined();
      expect(await metric(t, "frontdesk_rate_limiter_memory_fallbacks_total")).toBeUndefined();
    } finally {
      await t.close();
    }
  }, 90_000);
});
