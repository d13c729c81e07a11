import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Channel } from "pusher-js";
import { WebSocket } from "ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody, InitResponse } from "@frontdesk/contracts";
import { createPusherDriver } from "../../src/realtime/pusher-driver.js";
import { capturedLogger, LOG_LEVELS } from "../support/captured-log.js";
import { Pusher } from "../support/pusher-client.js";
import { createListeningTestApp, freePort, signedPusherClient, until, type ListeningTestApp, type ReverbDescriptor, visitorPusher } from "../support/realtime-clients.js";
import { SHARED_REALTIME_SECRET, startRealtimeProcess, type RealtimeProcess } from "../support/realtime-process.js";
import { bearer, SITE_ORIGIN, seedTenant, type Tenant } from "../support/seed.js";


const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", reject);
  });
const nextEvent = (channel: Channel, event: string) => new Promise<unknown>((resolve) => channel.bind(event, resolve));

/** The service configured with the `pusher` driver, pointed at `realtime` only through FRONTDESK_REALTIME_HOST/PORT/SCHEME. */
const pusherDriverEnvironment = (port: number, extra: Record<string, string> = {}) => ({
  FRONTDESK_REALTIME_DRIVER: "pusher",
  FRONTDESK_REALTIME_APP_SECRET: SHARED_REALTIME_SECRET,
  FRONTDESK_REALTIME_HOST: "127.0.0.1",
  FRONTDESK_REALTIME_PORT: String(port),
  FRONTDESK_REALTIME_SCHEME: "ws",
  ...extra,
});

describe("FRONTDESK_REALTIME_DRIVER=pusher: the service publishes to a separate `bin/frontdesk realtime` process", () => {
  let realtime: RealtimeProcess;
  let t: ListeningTestApp;
  let tenant: Tenant;
  const clients: { disconnect(): void }[] = [];

  beforeAll(async () => {
    realtime = await startRealtimeProcess();
    t = await createListeningTestApp("pglite", pusherDriverEnvironment(realtime.port));
    tenant = await seedTenant(t.services);
  }, 60_000);
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(async () => {
    await t?.close();
    await realtime?.stop();
  });

  async function visitor(): Promise<{ jwt: string; conversationId: string; reverb: ReverbDescriptor }> {
    const response = await fetch(`http://127.0.0.1:${t.port}/api/v1/widget/init`, {
      method: "POST",
      headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/`, new_conversation: true }),
    });
    const { data } = (await response.json()) as InitResponse;
    return { jwt: data.jwt, conversationId: data.conversation_id, reverb: data.reverb };
  }
  const post = (path: string, jwt: string, body: unknown = {}) =>
    fetch(`http://127.0.0.1:${t.port}/api/v1/widget${path}`, { method: "POST", headers: { ...bearer(jwt), "content-type": "application/json" }, body: JSON.stringify(body) });

  it("happy: pusher-js on init's reverb values reaches the realtime process, subscribes through the service's auth route, and receives typing, conversation.updated and human.requested", async () => {
    const session = await visitor();
    expect(session.reverb).toEqual({ app_key: "frontdesk", host: "127.0.0.1", port: realtime.port, scheme: "ws" });
    const widget = visitorPusher(session.reverb, `http://127.0.0.1:${t.port}`, session.jwt);
    clients.push(widget);
    const channel = widget.subscribe(`private-conversation.${session.conversationId}`);
    await subscribed(channel);

    const typing = nextEvent(channel, "typing");
    expect((await post("/typing", session.jwt, { typing: true })).status).toBe(204);
    expect(await typing).toEqual({ role: "visitor", typing: true, name: null });

    // An operator's client on the realtime process, its workspace channel signed with the shared secret.
    const operator = signedPusherClient(session.reverb, realtime.pusherServer);
    clients.push(operator);
    const workspace = operator.subscribe(`private-workspace.${tenant.workspaceId}`);
    await subscribed(workspace);
    const updated = nextEvent(channel, "conversation.updated");
    const requested = nextEvent(workspace, "human.requested");
    const response = await post("/request-human", session.jwt, { reason: "refund" });
    expect(response.status).toBe(200);
    const requestedAt = ((await response.json()) as { data: { human_requested_at: string | null } }).data.human_requested_at;
    expect(await updated).toMatchObject({ seq: 1, human_requested_at: requestedAt });
    expect(await requested).toEqual({ conversation_id: session.conversationId, agent_id: tenant.agentId, reason: "refund", requested_at: requestedAt, assigned_to: null });
  });

  it("happy: each channel's events reach the external server in the order they were published (requests in lanes, in batches)", async () => {
    const listener = signedPusherClient(realtime.reverb, realtime.pusherServer);
    clients.push(listener);
    const names = ["private-order.a", "private-order.b", "private-order.c", "private-order.d", "private-order.e"];
    const received = new Map<string, number[]>(names.map((name) => [name, []]));
    await Promise.all(
      names.map((name) => {
        const channel = listener.subscribe(name);
        channel.bind("tick", (data: { n: number }) => received.get(name)?.push(data.n));
        return subscribed(channel);
      }),
    );
    const count = 100;
    for (let n = 0; n < count; n += 1) await t.services.realtime.publish({ channels: [names[n % names.length]!], event: "tick", data: JSON.stringify({ n }) });
    await until(() => [...received.values()].every((numbers) => numbers.length === count / names.length));
    names.forEach((name, index) => expect(received.get(name)).toEqual(Array.from({ length: count / names.length }, (_, k) => k * names.length + index)));
  });

  it("happy: presenceMembers asks the external server who is on a presence channel (GET …/users), presenceUserCount how many (…?info=user_count)", async () => {
    const channelName = `presence-operators.${tenant.workspaceId}`;
    const operator = signedPusherClient(realtime.reverb, realtime.pusherServer, { user_id: "operator-1", user_info: { name: "Grace" } });
    clients.push(operator);
    await subscribed(operator.subscribe(channelName));
    expect(await t.services.realtime.presenceMembers(channelName)).toEqual([{ userId: "operator-1", userInfo: null }]);
    expect(await t.services.realtime.presenceUserCount(channelName)).toBe(1);
    expect(await t.services.realtime.presenceUserCount(`presence-operators.${tenant.workspaceId}-nobody`)).toBe(0);
    await expect(t.services.realtime.presenceMembers("private-workspace.x")).rejects.toMatchObject({ code: "bad_request" });
  });

  it("error: the service serves no WebSockets and no Pusher HTTP API of its own: an upgrade on /app/{key} and POST /apps/{id}/events are 404 in our error shape", async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${t.port}/app/frontdesk?protocol=7`);
    socket.on("error", () => undefined);
    const refusal = await new Promise<{ status: number; body: string }>((resolve) =>
      socket.on("unexpected-response", (_request, response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      }),
    );
    expect(refusal.status).toBe(404);
    expect(JSON.parse(refusal.body)).toEqual({ error: { code: "not_found", message: expect.stringContaining("FRONTDESK_REALTIME_DRIVER is pusher") } });

    const api = await fetch(`http://127.0.0.1:${t.port}/apps/frontdesk/events`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(api.status).toBe(404);
    expect(((await api.json()) as ErrorBody).error.code).toBe("not_found");
    expect(t.services.realtime.connectionCount).toBe(0);
  });
});

describe("FRONTDESK_REALTIME_DRIVER=pusher with an external server that does not answer", () => {
  it("error: every request still succeeds, the failure is logged once (not per event), nobody reads as present, and closing does not hang", async () => {
    const closedPort = await freePort();
    const { logger, lines } = capturedLogger();
    const t = await createListeningTestApp(
      "pglite",
      pusherDriverEnvironment(closedPort, { FRONTDESK_REALTIME_API_URL: `http://127.0.0.1:${closedPort}`, FRONTDESK_REALTIME_API_TIMEOUT_SECONDS: "1" }),
      { logger },
    );
    let closed = false;
    try {
      const tenant = await seedTenant(t.services);
      const init = await t.app.inject({ method: "POST", url: "/api/v1/widget/init", headers: { origin: SITE_ORIGIN }, payload: { agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/` } });
      expect(init.statusCode).toBe(200);
      const jwt = init.json().data.jwt as string;
      const failures = () => lines.filter((line) => line.level === LOG_LEVELS.warn && line.msg.includes("does not answer"));
      await until(() => failures().length === 1);
      for (const typing of [true, false, true]) {
        expect((await t.app.inject({ method: "POST", url: "/api/v1/widget/typing", headers: bearer(jwt), payload: { typing } })).statusCode).toBe(204);
      }
      expect((await t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: bearer(jwt), payload: {} })).statusCode).toBe(200);
      expect(await t.services.realtime.presenceMembers("presence-operators.x")).toEqual([]);
      expect(await t.services.realtime.presenceUserCount("presence-operators.x")).toBe(0);
      // Closing waits for what is queued to have had its attempt.
      await t.close();
      closed = true;
      expect(failures()).toHaveLength(1);
      expect(failures()[0]).toMatchObject({ api: `http://127.0.0.1:${closedPort}`, cause: "ECONNREFUSED" });
      expect(JSON.stringify(lines)).not.toContain(SHARED_REALTIME_SECRET);
    } finally {
      if (!closed) await t.close();
    }
  }, 60_000);

  it("error: one warning per outage: a server that answers 503 is logged once, its recovery once (with the events dropped meanwhile), the next outage again", async () => {
    let answer = 503;
    let requests = 0;
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        requests += 1;
        response.writeHead(answer, { "content-type": "application/json" }).end(answer === 200 ? "{}" : '{"error":"over capacity"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const { logger, lines } = capturedLogger();
    const driver = createPusherDriver({
      apiUrl: `http://127.0.0.1:${port}`,
      timeoutMs: 2000,
      credentials: { appId: "frontdesk", appKey: "frontdesk", appSecret: SHARED_REALTIME_SECRET },
      logger,
    });
    const warnings = () => lines.filter((line) => line.level === LOG_LEVELS.warn);
    const recoveries = () => lines.filter((line) => line.level === LOG_LEVELS.info && line.msg.includes("answers again"));
    const publish = (n: number) => driver.publish({ channels: ["private-outage"], event: "tick", data: JSON.stringify({ n }) });
    try {
      await publish(1);
      await until(() => warnings().length === 1);
      await publish(2);
      await until(() => requests === 2);
      answer = 200;
      // An event queued while the failing request was still under way is dropped with it: publish until one goes through.
      await until(async () => {
        await publish(3);
        return recoveries().length === 1;
      });
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]).toMatchObject({ cause: 'HTTP 503: {"error":"over capacity"}' });
      expect(recoveries()[0]?.dropped).toBeGreaterThanOrEqual(2);
      answer = 503;
      await publish(4);
      await until(() => warnings().length === 2);
    } finally {
      await driver.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
