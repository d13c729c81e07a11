import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { WebSocket } from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createListeningTestApp, rawClient, socketIdOf, until, type ListeningTestApp, type RawClient } from "../support/realtime-clients.js";
import { bareWebSocket, maskedTextFrame } from "../support/raw-websocket.js";
import { describeNeeding } from "../support/test-legs.js";

/** The limits are set small here so that each can be reached in a test. */
const LIMITS = {
  FRONTDESK_REALTIME_ACTIVITY_TIMEOUT_SECONDS: "0.4",
  FRONTDESK_REALTIME_PONG_TIMEOUT_SECONDS: "0.4",
  FRONTDESK_REALTIME_MAX_CONNECTIONS: "4",
  FRONTDESK_REALTIME_MAX_MESSAGE_BYTES: "1024",
  FRONTDESK_REALTIME_MAX_SEND_BUFFER_BYTES: "65536",
  FRONTDESK_REALTIME_MAX_CHANNEL_NAME_LENGTH: "40",
  FRONTDESK_REALTIME_MAX_CHANNELS_PER_CONNECTION: "3",
};

describe("the WebSocket side of the realtime server: protocol errors and limits (raw clients)", () => {
  let t: ListeningTestApp;
  const open: RawClient[] = [];
  const client = (query = "protocol=7&client=js&version=8.4.0", key = "frontdesk") => {
    const raw = rawClient(`ws://127.0.0.1:${t.port}/app/${key}?${query}`, { answerPings: true });
    open.push(raw);
    return raw;
  };
  const closeAll = async () => {
    const closing = open.splice(0);
    for (const raw of closing) raw.socket.close();
    await Promise.all(closing.map((raw) => raw.closed));
    await until(() => t.services.realtime.connectionCount === 0);
  };

  beforeAll(async () => {
    t = await createListeningTestApp("pglite", LIMITS);
  });
  afterAll(async () => {
    await closeAll();
    await t.close();
  });

  it("happy: connection_established carries a socket id and the activity timeout; pusher:ping is answered with pusher:pong", async () => {
    const raw = client();
    const established = await raw.next("pusher:connection_established");
    expect(JSON.parse(established.data as string)).toEqual({ socket_id: expect.stringMatching(/^\d+\.\d+$/), activity_timeout: 1 });
    raw.send({ event: "pusher:ping", data: {} });
    expect(await raw.next("pusher:pong")).toEqual({ event: "pusher:pong", data: "{}" });
    await closeAll();
  });

  it("error: a client that never answers the server's pusher:ping is closed with 4201; one that answers stays", async () => {
    const silent = rawClient(`ws://127.0.0.1:${t.port}/app/frontdesk?protocol=7`);
    const answering = client();
    await silent.next("pusher:ping", 3000);
    expect(await silent.closed).toEqual({ code: 4201, reason: "Pong reply not received" });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    await closeAll();
  });

  it("error: an unknown app key is told 4001 and closed with 4001", async () => {
    const raw = client("protocol=7", "someone-else");
    expect(await raw.next("pusher:error")).toMatchObject({ data: { code: 4001 } });
    expect((await raw.closed).code).toBe(4001);
  });

  it("error: no protocol version is 4008, an unsupported one 4007", async () => {
    expect((await client("client=js").closed).code).toBe(4008);
    expect((await client("protocol=99").closed).code).toBe(4007);
  });

  it("error: an upgrade on any other path than /app/{key} is answered 404", async () => {
    const socket = new WebSocket(`ws://127.0.0.1:${t.port}/socket`);
    const status = await new Promise<number>((resolve) => socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0)));
    socket.on("error", () => undefined);
    expect(status).toBe(404);
  });

  it("error: a message over the client message limit closes the socket with 1009 (message too big)", async () => {
    const raw = client();
    await raw.next("pusher:connection_established");
    raw.send({ event: "pusher:subscribe", data: { channel: "news", channel_data: "x".repeat(2000) } });
    expect((await raw.closed).code).toBe(1009);
  });

  it("error: over the connection limit, one more client is told 4100 (back off) and closed; a freed slot admits again", async () => {
    const admitted = [client(), client(), client(), client()];
    await Promise.all(admitted.map((raw) => raw.next("pusher:connection_established")));
    const extra = client();
    expect(await extra.next("pusher:error")).toEqual({ event: "pusher:error", data: { code: 4100, message: "Over capacity" } });
    expect((await extra.closed).code).toBe(4100);
    admitted[0]?.socket.close();
    await until(() => t.services.realtime.connectionCount === 3);
    await client().next("pusher:connection_established");
    await closeAll();
  });

  it("error: malformed messages and bad channel names are refused without closing the socket", async () => {
    const raw = client();
    await raw.next("pusher:connection_established");
    raw.send("not json");
    expect(await raw.next("pusher:error")).toMatchObject({ data: { code: 4300 } });
    raw.send({ event: "pusher:subscribe", data: { channel: "x".repeat(41) } });
    expect(await raw.next("pusher:subscription_error")).toMatchObject({ channel: "x".repeat(41), data: { status: 400 } });
    raw.send({ event: "pusher:subscribe", data: { channel: "spaces are not allowed" } });
    await until(() => raw.frames.filter((frame) => frame.event === "pusher:subscription_error").length === 2);
    raw.send({ event: "pusher:subscribe", data: { channel: "news" } });
    expect(await raw.next("pusher_internal:subscription_succeeded")).toEqual({ event: "pusher_internal:subscription_succeeded", channel: "news", data: "{}" });
    await closeAll();
  });

  it("error: past the channels one connection may hold, a subscription is refused (pusher:subscription_error 429, LimitReached); the socket stays, and leaving a channel makes room", async () => {
    const raw = client();
    await raw.next("pusher:connection_established");
    const subscribe = async (channel: string) => {
      const before = raw.frames.length;
      raw.send({ event: "pusher:subscribe", data: { channel } });
      await until(() => raw.frames.slice(before).some((frame) => frame.channel === channel));
      return raw.frames.slice(before).find((frame) => frame.channel === channel);
    };
    for (const channel of ["one", "two", "three"]) expect(await subscribe(channel)).toMatchObject({ event: "pusher_internal:subscription_succeeded" });
    // The same channel again is no new one.
    expect(await subscribe("two")).toMatchObject({ event: "pusher_internal:subscription_succeeded" });
    expect(await subscribe("four")).toEqual({
      event: "pusher:subscription_error",
      channel: "four",
      data: { type: "LimitReached", error: "A connection may be subscribed to 3 channels at most: unsubscribe from one first.", status: 429 },
    });
    expect(raw.socket.readyState).toBe(WebSocket.OPEN);
    const counted = async (channel: string) => (await (await t.pusherServer.get({ path: `/channels/${channel}`, params: { info: "subscription_count" } })).json()).subscription_count;
    expect(await counted("four")).toBe(0);
    raw.send({ event: "pusher:unsubscribe", data: { channel: "one" } });
    expect(await subscribe("four")).toMatchObject({ event: "pusher_internal:subscription_succeeded" });
    await closeAll();
  });

  it("security: a client event on a public channel is refused with 4301 and reaches no one", async () => {
    const [sender, listener] = [client(), client()];
    for (const raw of [sender, listener]) {
      await raw.next("pusher:connection_established");
      raw.send({ event: "pusher:subscribe", data: { channel: "lobby" } });
      await raw.next("pusher_internal:subscription_succeeded");
    }
    sender.send({ event: "client-typing", channel: "lobby", data: { typing: true } });
    expect(await sender.next("pusher:error")).toMatchObject({ data: { code: 4301 } });
    await t.pusherServer.trigger("lobby", "fence", {});
    await listener.next("fence");
    expect(listener.frames.some((frame) => frame.event === "client-typing")).toBe(false);
    await closeAll();
  });

  it("error: a client that stops reading is disconnected once its send buffer passes the limit, rather than queued without end", async () => {
    const slow = await bareWebSocket(t.port, "/app/frontdesk?protocol=7");
    slow.write(maskedTextFrame(JSON.stringify({ event: "pusher:subscribe", data: { channel: "firehose" } })));
    const subscribers = async () => (await t.pusherServer.get({ path: "/channels/firehose", params: { info: "subscription_count" } }).then((r) => r.json())).subscription_count;
    await until(async () => (await subscribers()) === 1);
    // It stops reading, yet keeps talking (so the activity timeout does not close it first).
    slow.pause();
    const keepAlive = setInterval(() => slow.write(maskedTextFrame(JSON.stringify({ event: "pusher:pong", data: {} }))), 100);
    const payload = "y".repeat(90_000);
    for (let round = 0; round < 40 && (await subscribers()) === 1; round++) {
      await t.pusherServer.triggerBatch(Array.from({ length: 10 }, () => ({ channel: "firehose", name: "bulk", data: payload })));
    }
    expect(await subscribers()).toBe(0);
    expect(t.services.realtime.connectionCount).toBe(0);
    clearInterval(keepAlive);
    slow.destroy();
  });
});

/** Two addresses behind the trusted proxy (127.0.0.2), and the untrusted loopback (127.0.0.1), each held to 2 sockets. */
const PER_ADDRESS = {
  FRONTDESK_REALTIME_MAX_CONNECTIONS_PER_IP: "2",
  FRONTDESK_TRUSTED_PROXIES: "127.0.0.2",
};

describe("the per-address connection limit (raw clients through a trusted proxy, and not)", () => {
  let t: ListeningTestApp;
  const open: RawClient[] = [];
  /** A client connecting from `peer`, saying (as a proxy does) that it forwards `forwardedFor`. */
  const client = (peer: string, forwardedFor?: string) => {
    const raw = rawClient(`ws://127.0.0.1:${t.port}/app/frontdesk?protocol=7`, {
      answerPings: true,
      localAddress: peer,
      ...(forwardedFor ? { headers: { "x-forwarded-for": forwardedFor } } : {}),
    });
    open.push(raw);
    return raw;
  };
  const closeAll = async () => {
    const closing = open.splice(0);
    for (const raw of closing) raw.socket.close();
    await Promise.all(closing.map((raw) => raw.closed));
    await until(() => t.services.realtime.connectionCount === 0);
  };

  beforeAll(async () => {
    t = await createListeningTestApp("pglite", PER_ADDRESS);
  });
  afterAll(async () => {
    await closeAll();
    await t.close();
  });

  it("error: a third socket of one client address (named by the trusted proxy) is told 4100 and closed; another address is admitted; a freed slot admits again", async () => {
    const first = [client("127.0.0.2", "203.0.113.7"), client("127.0.0.2", "203.0.113.7")];
    await Promise.all(first.map((raw) => raw.next("pusher:connection_established")));
    const third = client("127.0.0.2", "203.0.113.7");
    expect(await third.next("pusher:error")).toEqual({ event: "pusher:error", data: { code: 4100, message: "Over capacity: too many connections from this address" } });
    expect(await third.closed).toEqual({ code: 4100, reason: "Over capacity: too many connections from this address" });
    expect(third.frames.map((frame) => frame.event)).toEqual(["pusher:error"]);
    await client("127.0.0.2", "198.51.100.9").next("pusher:connection_established");

    first[0]?.socket.close();
    await until(() => t.services.realtime.connectionCount === 2);
    await client("127.0.0.2", "203.0.113.7").next("pusher:connection_established");
    await closeAll();
  });

  it("security: X-Forwarded-For from a peer that is not a trusted proxy is not believed: the peer's own address is counted", async () => {
    const admitted = [client("127.0.0.1", "203.0.113.1"), client("127.0.0.1", "203.0.113.2")];
    await Promise.all(admitted.map((raw) => raw.next("pusher:connection_established")));
    const refused = client("127.0.0.1", "203.0.113.3");
    expect((await refused.closed).code).toBe(4100);
    await closeAll();
  });
});

describeNeeding("redis")("the per-address connection limit over two realtime nodes sharing Redis", () => {
  const nodes: ListeningTestApp[] = [];
  const open: RawClient[] = [];
  const client = (node: ListeningTestApp) => {
    const raw = rawClient(`ws://127.0.0.1:${node.port}/app/frontdesk?protocol=7`, { answerPings: true, headers: { "x-forwarded-for": "192.0.2.44" } });
    open.push(raw);
    return raw;
  };

  beforeAll(async () => {
    const shared = {
      ...PER_ADDRESS,
      FRONTDESK_TRUSTED_PROXIES: "loopback",
      FRONTDESK_REDIS_URL: process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
      FRONTDESK_REDIS_PREFIX: `frontdesk-test-${randomUUID()}:`,
    };
    nodes.push(await createListeningTestApp("pglite", shared), await createListeningTestApp("pglite", shared));
    // Both nodes registered: until then each counts its own sockets only.
    const inspector = new Redis(shared.FRONTDESK_REDIS_URL);
    await until(async () => (await inspector.zcard(`${shared.FRONTDESK_REDIS_PREFIX}realtime:nodes`)) === 2, 10_000);
    inspector.disconnect();
  });
  afterAll(async () => {
    for (const raw of open.splice(0)) raw.socket.close();
    await Promise.all(nodes.map((node) => node.close()));
  });

  it("error: an address with a socket on each node is refused a third on either (4100); when one closes, the other node admits it", async () => {
    const [a, b] = nodes as [ListeningTestApp, ListeningTestApp];
    const onA = client(a);
    await onA.next("pusher:connection_established");
    await client(b).next("pusher:connection_established");
    for (const node of [a, b]) expect((await client(node).closed).code).toBe(4100);

    onA.socket.close();
    await until(() => a.services.realtime.connectionCount === 0);
    await client(b).next("pusher:connection_established");
  });
});
