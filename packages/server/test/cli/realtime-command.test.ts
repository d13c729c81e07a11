import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import type { Channel } from "pusher-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "@frontdesk/contracts";
import { redisEventsChannel } from "../../src/realtime/adapters/redis-adapter.js";
import { Pusher } from "../support/pusher-client.js";
import { connected, createListeningTestApp, rawClient, signedPusherClient, socketIdOf, until, type ListeningTestApp, visitorPusher } from "../support/realtime-clients.js";
import { SHARED_REALTIME_SECRET, startRealtimeProcess, type RealtimeProcess } from "../support/realtime-process.js";
import { dataDirWithMigratedStore } from "../support/test-database.js";
import { describeNeeding } from "../support/test-legs.js";
import { freePort, json, run, startServer, stopServer } from "./cli-process.js";

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", reject);
  });

describe("bin/frontdesk realtime", () => {
  let realtime: RealtimeProcess;

  beforeAll(async () => {
    // A database that does not exist: the realtime process opens none.
    realtime = await startRealtimeProcess({ FRONTDESK_DATABASE_URL: "postgres://frontdesk@127.0.0.1:1/nowhere" });
  }, 60_000);
  afterAll(() => realtime?.stop());

  it("happy: /healthz and /metrics answer, with no database; the widget API is not served", async () => {
    const base = `http://127.0.0.1:${realtime.port}`;
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok", realtime: { app_id: "frontdesk", connections: 0, shared: false, degraded: false } });
    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/^frontdesk_realtime_connections 0$/m);
    const widget = await fetch(`${base}/api/v1/widget/init`, { method: "POST" });
    expect(widget.status).toBe(404);
    expect(((await widget.json()) as ErrorBody).error.code).toBe("not_found");
  });

  it("happy: its Pusher HTTP API, signed with the configured secret, reaches its WebSocket clients", async () => {
    const client = signedPusherClient(realtime.reverb, realtime.pusherServer);
    try {
      await connected(client);
      const channel = client.subscribe("private-room.cli");
      await subscribed(channel);
      const received = new Promise<unknown>((resolve) => channel.bind("greeting", resolve));
      await realtime.pusherServer.trigger("private-room.cli", "greeting", { text: "hello" });
      expect(await received).toEqual({ text: "hello" });
      const health = (await (await fetch(`http://127.0.0.1:${realtime.port}/healthz`)).json()) as { realtime: { connections: number } };
      expect(health.realtime.connections).toBe(1);
    } finally {
      client.disconnect();
    }
  });
});

it("happy: SIGTERM closes every socket with 4200 (reconnect at once) and the process exits 0", async () => {
  const realtime = await startRealtimeProcess();
  const raw = rawClient(`ws://127.0.0.1:${realtime.port}/app/frontdesk?protocol=7`, { answerPings: true });
  await socketIdOf(raw);
  expect(await realtime.stop()).toBe(0);
  expect(await raw.closed).toEqual({ code: 4200, reason: "Server shutting down" });
}, 60_000);

describe("configuration errors (exit 78, naming the variable)", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "frontdesk-realtime-config-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it("error: serve with FRONTDESK_REALTIME_DRIVER=pusher and no app secret", async () => {
    const result = await run({ FRONTDESK_DATA_DIR: dataDir, FRONTDESK_REALTIME_DRIVER: "pusher" }, "serve");
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("FRONTDESK_REALTIME_APP_SECRET: required when FRONTDESK_REALTIME_DRIVER is pusher");
  });

  it("error: an unknown driver, an API URL with a path, and a short secret for the embedded server", async () => {
    const unknown = await run({ FRONTDESK_DATA_DIR: dataDir, FRONTDESK_REALTIME_DRIVER: "soketi" }, "serve");
    expect(unknown.code).toBe(78);
    expect(unknown.stderr).toContain("FRONTDESK_REALTIME_DRIVER");
    const withPath = await run(
      { FRONTDESK_DATA_DIR: dataDir, FRONTDESK_REALTIME_DRIVER: "pusher", FRONTDESK_REALTIME_APP_SECRET: "0123456789abcdef0123", FRONTDESK_REALTIME_API_URL: "https://rt.example.com/pusher" },
      "serve",
    );
    expect(withPath.code).toBe(78);
    expect(withPath.stderr).toContain("FRONTDESK_REALTIME_API_URL: must name only a scheme, host and port");
    const short = await run({ FRONTDESK_DATA_DIR: dataDir, FRONTDESK_REALTIME_APP_SECRET: "short" }, "realtime");
    expect(short.code).toBe(78);
    expect(short.stderr).toContain("FRONTDESK_REALTIME_APP_SECRET: must be at least 32 characters");
  });

  it("error: realtime refuses an unknown option with the usage (exit 2)", async () => {
    const result = await run({ FRONTDESK_DATA_DIR: dataDir }, "realtime", "--workers", "2");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("realtime [--host H] [--port P]");
  });
});

describeNeeding("redis")("bin/frontdesk realtime beside an embedded service on one Redis", () => {
  const prefix = `frontdesk-test-${randomUUID()}:`;
  let realtime: RealtimeProcess;
  let service: ListeningTestApp;

  beforeAll(async () => {
    const shared = { FRONTDESK_REDIS_URL: redisUrl, FRONTDESK_REDIS_PREFIX: prefix, FRONTDESK_REALTIME_APP_SECRET: SHARED_REALTIME_SECRET };
    [realtime, service] = await Promise.all([startRealtimeProcess(shared), createListeningTestApp("pglite", shared)]);
    // Both processes have subscribed to the deployment's events channel.
    const inspector = new Redis(redisUrl);
    try {
      await until(async () => Number(((await inspector.pubsub("NUMSUB", redisEventsChannel(prefix))) as [string, number])[1]) === 2);
    } finally {
      inspector.disconnect();
    }
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await realtime?.stop();
  });

  it("happy: an event of the service's bus (visitor typing) reaches a client of the realtime process", async () => {
    const conversationId = randomUUID();
    const client = signedPusherClient(realtime.reverb, realtime.pusherServer);
    try {
      const channel = client.subscribe(`private-conversation.${conversationId}`);
      await subscribed(channel);
      const typing = new Promise<unknown>((resolve) => channel.bind("typing", resolve));
      service.services.bus.publish({ type: "visitor.typing", workspaceId: randomUUID(), agentId: randomUUID(), conversationId, typing: true, at: new Date().toISOString() });
      expect(await typing).toEqual({ role: "visitor", typing: true, name: null });
    } finally {
      client.disconnect();
    }
  });
});

describe("bin/frontdesk serve with FRONTDESK_REALTIME_DRIVER=pusher, beside bin/frontdesk realtime", () => {
  it("happy: a visitor's pusher-js, configured only from serve's init, hears the typing serve publishes through the realtime process", async () => {
    const realtime = await startRealtimeProcess();
    // A migrated store (the subject is the driver, not a first start: that would cost an initdb).
    const dataDir = await dataDirWithMigratedStore("pglite", "frontdesk-serve-pusher-driver-");
    const env = {
      FRONTDESK_DATA_DIR: dataDir,
      FRONTDESK_LOG_LEVEL: "warn",
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
      FRONTDESK_REALTIME_DRIVER: "pusher",
      FRONTDESK_REALTIME_APP_SECRET: SHARED_REALTIME_SECRET,
      FRONTDESK_REALTIME_HOST: "127.0.0.1",
      FRONTDESK_REALTIME_PORT: String(realtime.port),
    };
    const origin = "https://shop.example.com";
    const workspace = json(await run(env, "admin", "workspace", "create", "--name", "W"));
    const agent = json(await run(env, "admin", "agent", "create", "--workspace", workspace.id, "--name", "Bot", "--origin", origin));
    const port = await freePort();
    const serve = await startServer(env, port);
    let widget: Pusher | null = null;
    try {
      const base = `http://127.0.0.1:${port}/api/v1/widget`;
      const init = await fetch(`${base}/init`, { method: "POST", headers: { origin, "content-type": "application/json" }, body: JSON.stringify({ agent_id: agent.id, page_url: `${origin}/` }) });
      const { data } = (await init.json()) as { data: { jwt: string; conversation_id: string; reverb: { app_key: string; host: string; port: number; scheme: string } } };
      expect(data.reverb).toEqual({ app_key: "frontdesk", host: "127.0.0.1", port: realtime.port, scheme: "ws" });
      widget = visitorPusher(data.reverb, `http://127.0.0.1:${port}`, data.jwt);
      const channel = widget.subscribe(`private-conversation.${data.conversation_id}`);
      await subscribed(channel);
      const typing = new Promise<unknown>((resolve) => channel.bind("typing", resolve));
      const posted = await fetch(`${base}/typing`, { method: "POST", headers: { authorization: `Bearer ${data.jwt}`, "content-type": "application/json" }, body: JSON.stringify({ typing: true }) });
      expect(posted.status).toBe(204);
      expect(await typing).toEqual({ role: "visitor", typing: true, name: null });
      // serve itself serves no Pusher HTTP API under this driver.
      const api = await fetch(`http://127.0.0.1:${port}/apps/frontdesk/events`, { method: "POST" });
      expect(api.status).toBe(404);
    } finally {
      widget?.disconnect();
      await stopServer(serve.child);
      await realtime.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    expect(serve.child.exitCode).toBe(0);
  }, 120_000);
});
