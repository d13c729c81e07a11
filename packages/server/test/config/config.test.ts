import { mkdtemp, readdir, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.js";
import { resolveJwtSecret } from "../../src/config/jwt-secret.js";

describe("configuration", () => {
  it("happy: embedded defaults with no variables set", () => {
    const config = loadConfig({});
    expect(config.store).toEqual({ kind: "pglite", dataDir: "./data", sharedBuffersMb: 16 });
    expect(() => loadConfig({ FRONTDESK_PGLITE_SHARED_BUFFERS_MB: "0" })).toThrow(/FRONTDESK_PGLITE_SHARED_BUFFERS_MB/);
    expect(config.http).toEqual({
      host: "127.0.0.1",
      port: 8080,
      trustedProxies: [],
      sseHeartbeatMs: 15_000,
      timeouts: { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 72_000 },
    });
    expect(loadConfig({ FRONTDESK_HTTP_HEADERS_TIMEOUT_SECONDS: "0.5" }).http.timeouts.headersMs).toBe(500);
    expect(config.auth.jwtIssuer).toBe("frontdesk");
    expect(config.conversationIdleHours).toBe(24);
    expect(config.rateLimits.initPerIpAndAgent).toEqual({ points: 60, windowSeconds: 60 });
    expect(config.rateLimits.initPerIp).toBeNull();
    expect(config.rateLimits.rulesPerIpAndAgent).toEqual({ points: 60, windowSeconds: 60 });
    expect(loadConfig({ FRONTDESK_RATE_LIMIT_RULES_PER_MINUTE: "7" }).rateLimits.rulesPerIpAndAgent).toEqual({ points: 7, windowSeconds: 60 });
    expect(() => loadConfig({ FRONTDESK_RATE_LIMIT_RULES_PER_MINUTE: "0" })).toThrow(/FRONTDESK_RATE_LIMIT_RULES_PER_MINUTE/);
    expect(config.rateLimits.session.points).toBe(30);
    expect(config.rateLimits.leads.points).toBe(5);
    expect(config.rateLimits.typing.points).toBe(600);
    expect(config.rateLimits.satisfaction.points).toBe(60);
    expect(config.rateLimits.coupon.points).toBe(120);
    expect(config.redisUrl).toBeUndefined();
    expect(config.redisPrefix).toBe("frontdesk:");
    expect(loadConfig({ FRONTDESK_REDIS_PREFIX: "acme:" }).redisPrefix).toBe("acme:");
    expect(config.publicUrl).toBe("http://127.0.0.1:8080");
    expect(config.retrievalIndexBudgetBytes).toBe(256 * 1024 * 1024);
    expect(loadConfig({ FRONTDESK_RETRIEVAL_INDEX_MB: "0" }).retrievalIndexBudgetBytes).toBe(0);
    expect(() => loadConfig({ FRONTDESK_BRANDING_URL: "javascript:alert(1)" })).toThrow(/FRONTDESK_BRANDING_URL/);
    expect(loadConfig({ FRONTDESK_BRANDING_URL: "https://acme.com/" }).branding.url).toBe("https://acme.com/");
    expect(config.embeddings.idleTimeoutMs).toBe(300_000);
    expect(loadConfig({ FRONTDESK_EMBEDDINGS_IDLE_SECONDS: "45" }).embeddings.idleTimeoutMs).toBe(45_000);
    expect(() => loadConfig({ FRONTDESK_EMBEDDINGS_IDLE_SECONDS: "0" })).toThrow(/FRONTDESK_EMBEDDINGS_IDLE_SECONDS/);
    // One sitemap file holds 50,000 pages; a sitemap index of them may bring a source up to 1,000,000.
    expect(config.ingest.sitemapMaxPages).toBe(5000);
    expect(loadConfig({ FRONTDESK_SITEMAP_MAX_PAGES: "100000" }).ingest.sitemapMaxPages).toBe(100_000);
  });

  it("happy: a database URL selects Postgres; profile high is Set B; single limits override", () => {
    const config = loadConfig({
      FRONTDESK_DATABASE_URL: "postgres://u@db:5432/frontdesk",
      FRONTDESK_RATE_LIMIT_PROFILE: "high",
      FRONTDESK_RATE_LIMIT_LEADS_PER_MINUTE: "7",
      FRONTDESK_TRUSTED_PROXIES: "10.0.0.0/8, 127.0.0.1",
      FRONTDESK_REALTIME_PORT: "6001",
      OTHER_VARIABLE: "ignored",
    });
    expect(config.store).toEqual({ kind: "postgres", url: "postgres://u@db:5432/frontdesk", poolSize: 10 });
    expect(config.rateLimits.initPerIpAndAgent.points).toBe(1000);
    expect(config.rateLimits.initPerIp).toEqual({ points: 30000, windowSeconds: 3600 });
    expect(config.rateLimits.leads.points).toBe(7);
    expect(config.http.trustedProxies).toEqual(["10.0.0.0/8", "127.0.0.1"]);
    expect(config.realtime.descriptor.port).toBe(6001);
  });

  it.each([
    ["FRONTDESK_PORT", "eighty"],
    ["FRONTDESK_PORT", "70000"],
    ["FRONTDESK_DATABASE_URL", "mysql://x"],
    ["FRONTDESK_REDIS_URL", "http://x"],
    ["FRONTDESK_REDIS_PREFIX", "x".repeat(101)],
    ["FRONTDESK_RATE_LIMIT_PROFILE", "turbo"],
    ["FRONTDESK_JWT_SECRET", "short"],
    ["FRONTDESK_CONVERSATION_IDLE_HOURS", "-1"],
    ["FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE", "0"],
    ["FRONTDESK_REALTIME_SCHEME", "ftp"],
    ["FRONTDESK_RETRIEVAL_INDEX_MB", "-5"],
    ["FRONTDESK_RETRIEVAL_INDEX_MB", "1.5"],
    ["FRONTDESK_SITEMAP_MAX_PAGES", "1000001"],
  ])("error: a bad %s=%s stops the start with a message naming the variable", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it("security: without JWT_SECRET a strong secret is generated once, kept 0600 in the data dir and reused", async () => {
    const dir = await mkdtemp(join(tmpdir(), "frontdesk-secret-"));
    const first = await resolveJwtSecret(undefined, dir);
    const second = await resolveJwtSecret(undefined, dir);
    expect(first).toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(64);
    expect((await readFile(join(dir, "jwt-secret"), "utf8")).trim()).toBe(first);
    expect((await stat(join(dir, "jwt-secret"))).mode & 0o777).toBe(0o600);
    expect(await resolveJwtSecret("configured-secret-configured-secret-1234", dir)).toBe("configured-secret-configured-secret-1234");
  });

  it("edge: twelve first starts at once agree on one whole secret, and leave no draft behind", async () => {
    const dir = await mkdtemp(join(tmpdir(), "frontdesk-secret-race-"));
    const secrets = await Promise.all(Array.from({ length: 12 }, () => resolveJwtSecret(undefined, dir)));
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]!.length).toBeGreaterThanOrEqual(64);
    expect(await readdir(dir)).toEqual(["jwt-secret"]);
  });
});
