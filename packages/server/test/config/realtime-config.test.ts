import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/config.js";
import { resolveRealtimeSecret } from "../../src/config/realtime-secret.js";

const descriptorOf = (environment: Record<string, string>) => loadConfig(environment).realtime.descriptor;

describe("realtime configuration", () => {
  it("happy: by default init points at the service itself (FRONTDESK_HOST:FRONTDESK_PORT, ws)", () => {
    expect(descriptorOf({})).toEqual({ host: "127.0.0.1", port: 8080, scheme: "ws" });
    expect(descriptorOf({ FRONTDESK_PORT: "9000" })).toEqual({ host: "127.0.0.1", port: 9000, scheme: "ws" });
  });

  it("happy: behind an https public URL it is wss on the public host and port (443 when the URL names none)", () => {
    expect(descriptorOf({ FRONTDESK_PUBLIC_URL: "https://chat.example.com/" })).toEqual({ host: "chat.example.com", port: 443, scheme: "wss" });
    expect(descriptorOf({ FRONTDESK_PUBLIC_URL: "https://chat.example.com:8443" })).toEqual({ host: "chat.example.com", port: 8443, scheme: "wss" });
    expect(descriptorOf({ FRONTDESK_PUBLIC_URL: "http://example.com" })).toEqual({ host: "example.com", port: 80, scheme: "ws" });
  });

  it("happy: FRONTDESK_REALTIME_HOST/PORT/SCHEME override the derived values, each on its own", () => {
    expect(descriptorOf({ FRONTDESK_PUBLIC_URL: "https://chat.example.com", FRONTDESK_REALTIME_HOST: "ws.example.com" })).toEqual({ host: "ws.example.com", port: 443, scheme: "wss" });
    expect(descriptorOf({ FRONTDESK_REALTIME_HOST: "rt.example.com", FRONTDESK_REALTIME_PORT: "6001", FRONTDESK_REALTIME_SCHEME: "https" })).toEqual({ host: "rt.example.com", port: 6001, scheme: "wss" });
  });

  it("happy and error: FRONTDESK_REALTIME_NODE_EXPIRY_SECONDS is 15 by default, takes 1 to 3600 seconds, and names itself when out of range", () => {
    expect(loadConfig({}).realtimeNodeExpirySeconds).toBe(15);
    expect(loadConfig({ FRONTDESK_REALTIME_NODE_EXPIRY_SECONDS: "2" }).realtimeNodeExpirySeconds).toBe(2);
    for (const value of ["0", "0.5", "3601", "soon"]) {
      expect(() => loadConfig({ FRONTDESK_REALTIME_NODE_EXPIRY_SECONDS: value })).toThrow(/FRONTDESK_REALTIME_NODE_EXPIRY_SECONDS/);
    }
  });

  it("happy: the limits' defaults are docs/configuration.md's", () => {
    const { realtime } = loadConfig({});
    expect(realtime).toMatchObject({ appId: "frontdesk", appKey: "frontdesk", appSecret: undefined, activityTimeoutSeconds: 30, pongTimeoutSeconds: 30 });
    expect(realtime.limits).toEqual({
      clientMessageBytes: 10_240,
      eventPayloadBytes: 102_400,
      channelNameLength: 200,
      channelsPerEvent: 100,
      eventsPerBatch: 10,
      maxConnections: 10_000,
      connectionsPerAddress: 200,
      channelsPerConnection: 100,
      sendBufferBytes: 1_048_576,
    });
    expect(realtime.trustedProxies).toEqual([]);
  });

  it("happy: the per-IP and per-connection limits are set by FRONTDESK_REALTIME_MAX_CONNECTIONS_PER_IP and _MAX_CHANNELS_PER_CONNECTION; WebSocket clients' addresses honour FRONTDESK_TRUSTED_PROXIES", () => {
    const { realtime } = loadConfig({
      FRONTDESK_REALTIME_MAX_CONNECTIONS_PER_IP: "20",
      FRONTDESK_REALTIME_MAX_CHANNELS_PER_CONNECTION: "5",
      FRONTDESK_TRUSTED_PROXIES: "10.0.0.0/8, loopback",
    });
    expect(realtime.limits).toMatchObject({ connectionsPerAddress: 20, channelsPerConnection: 5 });
    expect(realtime.trustedProxies).toEqual(["10.0.0.0/8", "loopback"]);
  });

  it.each([
    ["FRONTDESK_REALTIME_APP_SECRET", "short"],
    ["FRONTDESK_REALTIME_APP_KEY", "has space"],
    ["FRONTDESK_REALTIME_MAX_CONNECTIONS", "0"],
    ["FRONTDESK_REALTIME_MAX_CONNECTIONS_PER_IP", "0"],
    ["FRONTDESK_REALTIME_MAX_CHANNELS_PER_CONNECTION", "many"],
    ["FRONTDESK_REALTIME_PORT", "0"],
    ["FRONTDESK_REALTIME_SCHEME", "ftp"],
    ["FRONTDESK_REALTIME_ACTIVITY_TIMEOUT_SECONDS", "-1"],
  ])("error: %s=%s is a configuration error naming the variable", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it("happy: an unset app secret is generated once, kept in the data dir (0600) and reused; a configured one wins", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-realtime-"));
    try {
      const first = await resolveRealtimeSecret(undefined, dataDir);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(await resolveRealtimeSecret(undefined, dataDir)).toBe(first);
      expect((await readFile(join(dataDir, "realtime-app-secret"), "utf8")).trim()).toBe(first);
      expect((await stat(join(dataDir, "realtime-app-secret"))).mode & 0o777).toBe(0o600);
      expect(await resolveRealtimeSecret("configured-secret-configured-secret-0", dataDir)).toBe("configured-secret-configured-secret-0");
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
