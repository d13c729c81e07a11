import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { expect, it } from "vitest";
import { redisEventsChannel } from "../../src/realtime/adapters/redis-adapter.js";
import { until } from "../support/realtime-clients.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeNeeding } from "../support/test-legs.js";
import { ThrowawayRedis } from "../support/throwaway-redis.js";

const machineRedisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

interface Health {
  status: string;
  reasons?: string[];
  rate_limiter: { shared: boolean };
  realtime: { driver: string; shared: boolean; degraded: boolean; reason?: string };
}

const health = async (t: TestApp) => {
  const response = await t.app.inject({ method: "GET", url: "/healthz" });
  expect(response.statusCode).toBe(200);
  return response.json() as Health;
};

/** Polls /healthz until `condition` holds, and answers that health. */
async function healthWhen(t: TestApp, condition: (body: Health) => boolean): Promise<Health> {
  let last: Health | null = null;
  await until(async () => condition((last = await health(t))), 15_000);
  if (!last) throw new Error("no /healthz answer");
  return last;
}

describeNeeding("redis")("/healthz reports the realtime layer's Redis connections, the fan-out's included", () => {
  it("happy: with Redis answering, realtime is shared (presence, counts and events)", async () => {
    const t = await createTestApp("pglite", { FRONTDESK_REDIS_URL: machineRedisUrl, FRONTDESK_REDIS_PREFIX: `frontdesk-test-${randomUUID()}:` });
    try {
      const body = await healthWhen(t, (h) => h.realtime.shared);
      expect(body.status).toBe("ok");
      expect(body).not.toHaveProperty("reasons");
      expect(body.realtime).toEqual({ driver: "embedded", shared: true, degraded: false });
    } finally {
      await t.close();
    }
   }, 60_000);

  it("error: the fan-out's subscriber cut off (CLIENT KILL) and refused again (ACL): /healthz says events no longer cross processes (presence still answering), and recovers when Redis takes the subscription again", async () => {
    const redis = await ThrowawayRedis.start();
    const inspector = new Redis(redis.url);
    const t = await createTestApp("pglite", { FRONTDESK_REDIS_URL: redis.url, FRONTDESK_REDIS_PREFIX: `frontdesk-test-${randomUUID()}:` });
    try {
      await healthWhen(t, (h) => h.status === "ok" && h.realtime.shared);

      // Only the fan-out subscribes: the rate limiter and the presence node keep working.
      await inspector.call("ACL", "SETUSER", "default", "-subscribe");
      await inspector.call("CLIENT", "KILL", "TYPE", "pubsub");
      const lost = await healthWhen(t, (h) => h.realtime.degraded);
      expect(lost.status).toBe("degraded");
      expect(lost.realtime).toMatchObject({ driver: "embedded", shared: false, degraded: true });
      // The fan-out's reason (events), not the presence node's (which would say everything is this process's own).
      expect(lost.realtime.reason).toContain("events do not reach the other processes");
      expect(lost.realtime.reason).not.toContain("presence");
      expect(lost.realtime.reason).toContain(`Redis at 127.0.0.1:${redis.port}`);
      expect(lost.reasons).toEqual([lost.realtime.reason]);
      expect(lost.rate_limiter.shared).toBe(true);

      await inspector.call("ACL", "SETUSER", "default", "+subscribe");
      const back = await healthWhen(t, (h) => h.status === "ok");
      expect(back.realtime).toEqual({ driver: "embedded", shared: true, degraded: false });
      expect(Number(((await inspector.pubsub("NUMSUB", redisEventsChannel(t.services.config.redisPrefix))) as [string, number])[1])).toBe(1);
    } finally {
      inspector.disconnect();
      await t.close();
      await redis.kill();
    }
  }, 60_000);
});
