import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { legsOfStore, storeKinds } from "../support/test-database.js";
import { describeEachNeeding, type TestLegName } from "../support/test-legs.js";
import { SITE_ORIGIN, bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";

const W = "/api/v1/widget";
const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** Every limiter behaviour, against the in-process counters and against the machine's Redis. */
const backends: { name: string; env: Record<string, string>; legs: TestLegName[] }[] = [
  { name: "memory", env: {}, legs: [] },
  { name: "redis", env: { FRONTDESK_REDIS_URL: process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379" }, legs: ["redis"] },
];

describeEachNeeding(
  storeKinds.flatMap((kind) => backends.map((backend) => ({ kind, backend }))),
  ({ kind, backend }) => [...legsOfStore(kind), ...backend.legs],
)(
  "rate limits on $kind with $backend.name counters",
  ({ kind, backend }) => {
    let t: TestApp;
    let tenant: Tenant;

    beforeAll(async () => {
      t = await createTestApp(kind, {
        ...backend.env,
        FRONTDESK_TRUSTED_PROXIES: "127.0.0.1",
        FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: "3",
        FRONTDESK_RATE_LIMIT_RULES_PER_MINUTE: "2",
        FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "4",
        FRONTDESK_RATE_LIMIT_TYPING_PER_MINUTE: "2",
        FRONTDESK_RATE_LIMIT_SATISFACTION_PER_MINUTE: "2",
        FRONTDESK_RATE_LIMIT_COUPON_PER_MINUTE: "2",
      });
      tenant = await seedTenant(t.services);
    });
    afterAll(() => t.close());

    const initFrom = (ip: string, agentId = tenant.agentId) =>
      t.app.inject({
        method: "POST",
        url: `${W}/init`,
        headers: { origin: SITE_ORIGIN, "x-forwarded-for": ip },
        payload: { agent_id: agentId, page_url: `${SITE_ORIGIN}/` },
      });

    it("happy: limited answers carry X-RateLimit-Limit, -Remaining and -Reset (Unix seconds)", async () => {
      const response = await initFrom(randomIp());
      expect(response.statusCode).toBe(200);
      expect(response.headers["x-ratelimit-limit"]).toBe("3");
      expect(response.headers["x-ratelimit-remaining"]).toBe("2");
      const reset = Number(response.headers["x-ratelimit-reset"]);
      const now = Math.floor(Date.now() / 1000);
      expect(reset).toBeGreaterThanOrEqual(now);
      expect(reset).toBeLessThanOrEqual(now + 61);
      expect(response.headers["retry-after"]).toBeUndefined();
    });

    it("error: init past the per-IP-and-agent budget is 429 rate_limited with Retry-After; another agent has its own budget", async () => {
      const ip = randomIp();
      for (let i = 0; i < 3; i += 1) expect((await initFrom(ip)).statusCode).toBe(200);
      const refused = await initFrom(ip);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["content-type"]).toContain("application/json");
      expect(refused.json()).toEqual({ error: { code: "rate_limited", message: expect.any(String) } });
      expect(refused.headers["x-ratelimit-remaining"]).toBe("0");
      const retryAfter = Number(refused.headers["retry-after"]);
      expect(Number.isInteger(retryAfter)).toBe(true);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const other = await seedTenant(t.services);
      expect((await initFrom(ip, other.agentId)).statusCode).toBe(200);
      expect((await initFrom(randomIp())).statusCode).toBe(200);
    });

    const rulesFrom = (ip: string, agentId = tenant.agentId) =>
      t.app.inject({
        method: "POST",
        url: `${W}/rules`,
        headers: { origin: SITE_ORIGIN, "x-forwarded-for": ip },
        payload: { agent_id: agentId, page_url: `${SITE_ORIGIN}/` },
      });

    it("happy: /rules has its own budget per IP and agent: spending init's leaves /rules answering, and spending /rules leaves init answering", async () => {
      const initFirst = randomIp();
      for (let i = 0; i < 3; i += 1) expect((await initFrom(initFirst)).statusCode).toBe(200);
      expect((await initFrom(initFirst)).statusCode).toBe(429);
      const rules = await rulesFrom(initFirst);
      expect(rules.statusCode, rules.body).toBe(200);
      expect(rules.headers["x-ratelimit-limit"]).toBe("2");
      expect(rules.headers["x-ratelimit-remaining"]).toBe("1");

      const rulesFirst = randomIp();
      for (let i = 0; i < 2; i += 1) expect((await rulesFrom(rulesFirst)).statusCode).toBe(200);
      const refused = await rulesFrom(rulesFirst);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: { code: "rate_limited", message: expect.any(String) } });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      const init = await initFrom(rulesFirst);
      expect(init.statusCode, init.body).toBe(200);
      expect(init.headers["x-ratelimit-limit"]).toBe("3");
      expect(init.headers["x-ratelimit-remaining"]).toBe("2");
      // Another agent on the same IP has a /rules budget of its own.
      expect((await rulesFrom(rulesFirst, (await seedTenant(t.services)).agentId)).statusCode).toBe(200);
    });

    it("security: X-Forwarded-For is honoured only from a trusted proxy, right-most untrusted entry", async () => {
      const spoofed = randomIp();
      const real = randomIp();
      // From the trusted proxy: the client is the right-most untrusted entry, whatever the visitor put before it.
      for (let i = 0; i < 3; i += 1) {
        const response = await t.app.inject({
          method: "POST",
          url: `${W}/typing`,
          headers: { "x-forwarded-for": `${randomIp()}, ${real}` },
        });
        expect(response.statusCode).toBe(i < 2 ? 204 : 429);
      }
      // From an untrusted peer, the header is ignored: the peer's own address is the key.
      const untrusted = randomIp();
      for (let i = 0; i < 3; i += 1) {
        const response = await t.app.inject({
          method: "POST",
          url: `${W}/typing`,
          remoteAddress: untrusted,
          headers: { "x-forwarded-for": `${randomIp()}` },
        });
        expect(response.statusCode).toBe(i < 2 ? 204 : 429);
      }
      expect(spoofed).not.toBe(real);
    });

    it("happy: events and request-human share one per-token budget; a new token has its own", async () => {
      const session = await startSession(t.app, tenant.agentId, {}, SITE_ORIGIN);
      const event = () => t.app.inject({ method: "POST", url: `${W}/events`, headers: bearer(session.jwt), payload: { event: "x" } });
      expect((await event()).statusCode).toBe(202);
      expect((await event()).statusCode).toBe(202);
      expect((await t.app.inject({ method: "POST", url: `${W}/request-human`, headers: bearer(session.jwt), payload: {} })).statusCode).toBe(200);
      expect((await event()).statusCode).toBe(202);
      const refused = await event();
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe("rate_limited");
      const fresh = await startSession(t.app, tenant.agentId, {}, SITE_ORIGIN);
      expect((await t.app.inject({ method: "POST", url: `${W}/events`, headers: bearer(fresh.jwt), payload: { event: "x" } })).statusCode).toBe(202);
    });

    it("happy: leads have their own per-token budget (standard profile: 5 per minute)", async () => {
      const session = await startSession(t.app, tenant.agentId);
      const lead = (i: number) =>
        t.app.inject({ method: "POST", url: `${W}/leads`, headers: bearer(session.jwt), payload: { email: `p${i}@example.com` } });
      for (let i = 0; i < 5; i += 1) expect((await lead(i)).statusCode).toBe(201);
      const refused = await lead(6);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers["x-ratelimit-limit"]).toBe("5");
    });

    it("happy: satisfaction and coupon are limited per IP", async () => {
      const shop = await seedTenant(t.services, { vertical: "ecommerce" });
      const session = await startSession(t.app, shop.agentId);
      const ip = randomIp();
      for (const [path, payload] of [["/satisfaction", { rating: "good" }], ["/coupon/apply", { code: "SAVE-10" }]] as const) {
        const call = () =>
          t.app.inject({ method: "POST", url: `${W}${path}`, headers: { ...bearer(session.jwt), "x-forwarded-for": ip }, payload });
        expect((await call()).statusCode).toBe(200);
        expect((await call()).statusCode).toBe(200);
        expect((await call()).statusCode).toBe(429);
      }
    });
  },
);

describe("high profile (Set B)", () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await createTestApp("pglite", {
      FRONTDESK_RATE_LIMIT_PROFILE: "high",
      FRONTDESK_RATE_LIMIT_INIT_PER_HOUR_PER_IP: "2",
      FRONTDESK_TRUSTED_PROXIES: "127.0.0.1",
    });
    tenant = await seedTenant(t.services);
  });
  afterAll(() => t.close());

  it("happy: init also counts per IP per hour across agents; the leads budget is 30 per minute", async () => {
    expect(t.services.config.rateLimits.initPerIpAndAgent).toEqual({ points: 1000, windowSeconds: 60 });
    expect(t.services.config.rateLimits.leads.points).toBe(30);
    expect(t.services.config.rateLimits.rulesPerIpAndAgent).toEqual({ points: 1000, windowSeconds: 60 });
    expect(t.services.config.rateLimits.session.points).toBe(300);
    const other = await seedTenant(t.services);
    const ip = randomIp();
    const initFrom = (agentId: string) =>
      t.app.inject({
        method: "POST",
        url: `${W}/init`,
        headers: { origin: SITE_ORIGIN, "x-forwarded-for": ip },
        payload: { agent_id: agentId, page_url: `${SITE_ORIGIN}/` },
      });
    expect((await initFrom(tenant.agentId)).statusCode).toBe(200);
    expect((await initFrom(other.agentId)).statusCode).toBe(200);
    const refused = await initFrom(tenant.agentId);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(60);
  });
});
