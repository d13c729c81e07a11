import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Channel } from "pusher-js";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { operatorsOnline } from "../../src/conversations/operators-online.js";
import { redisEventsChannel } from "../../src/realtime/adapters/redis-adapter.js";
import { capturedLogger, LOG_LEVELS } from "../support/captured-log.js";
import type { Pusher } from "../support/pusher-client.js";
import { connected, createListeningTestApp, reverbFromInit, signedPusherClient, until, type ListeningTestApp, type ReverbDescriptor } from "../support/realtime-clients.js";
import { describeNeeding } from "../support/test-legs.js";
import { ThrowawayRedis } from "../support/throwaway-redis.js";

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

const subscribed = (channel: Channel) =>
  new Promise<unknown>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", resolve);
    channel.bind("pusher:subscription_error", reject);
  });

/** Every `data` the channel receives as `event`, in order. */
function recorder(channel: Channel, event: string): unknown[] {
  const received: unknown[] = [];
  channel.bind(event, (data: unknown) => received.push(data));
  return received;
}

/** Subscribers of a deployment's events channel: one per process whose adapter has subscribed. */
async function processesListening(inspector: Redis, prefix: string): Promise<number> {
  const reply = (await inspector.pubsub("NUMSUB", redisEventsChannel(prefix))) as [string, number];
  return Number(reply[1]);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describeNeeding("redis")("realtime events across two processes through Redis", () => {
  const prefix = `frontdesk-test-${randomUUID()}:`;
  const inspector = new Redis(redisUrl, { lazyConnect: true });
  let a: ListeningTestApp;
  let b: ListeningTestApp;
  let reverbA: ReverbDescriptor;
  let reverbB: ReverbDescriptor;
  const clients: Pusher[] = [];
  const clientOn = (reverb: ReverbDescriptor, t: ListeningTestApp) => {
    const pusher = signedPusherClient(reverb, t.pusherServer);
    clients.push(pusher);
    return pusher;
  };

  beforeAll(async () => {
    const environment = { FRONTDESK_REDIS_URL: redisUrl, FRONTDESK_REDIS_PREFIX: prefix };
    [a, b] = await Promise.all([createListeningTestApp("pglite", environment), createListeningTestApp("pglite", environment)]);
    [reverbA, reverbB] = await Promise.all([reverbFromInit(a), reverbFromInit(b)]);
    await inspector.connect();
    await until(async () => (await processesListening(inspector, prefix)) === 2);
  }, 60_000);
  afterEach(() => {
    for (const pusher of clients.splice(0)) pusher.disconnect();
  });
  afterAll(async () => {
    inspector.disconnect();
    await Promise.all([a?.close(), b?.close()]);
  });

  it("happy: a client on A receives an event published through B's HTTP API, and B's own client receives it exactly once", async () => {
    const [onA, onB] = [clientOn(reverbA, a), clientOn(reverbB, b)];
    const [channelA, channelB] = [onA.subscribe("private-room.http"), onB.subscribe("private-room.http")];
    await Promise.all([subscribed(channelA), subscribed(channelB)]);
    const [gotA, gotB] = [recorder(channelA, "greeting"), recorder(channelB, "greeting")];
    await b.pusherServer.trigger("private-room.http", "greeting", { text: "from B" });
    await until(() => gotA.length === 1 && gotB.length === 1);
    await settle();
    expect({ gotA, gotB }).toEqual({ gotA: [{ text: "from B" }], gotB: [{ text: "from B" }] });
  });

  it("happy: an event of B's bus (visitor typing) reaches the conversation's channel on A, once on each process", async () => {
    const conversationId = randomUUID();
    const channelName = `private-conversation.${conversationId}`;
    const [onA, onB] = [clientOn(reverbA, a), clientOn(reverbB, b)];
    const [channelA, channelB] = [onA.subscribe(channelName), onB.subscribe(channelName)];
    await Promise.all([subscribed(channelA), subscribed(channelB)]);
    const [gotA, gotB] = [recorder(channelA, "typing"), recorder(channelB, "typing")];
    b.services.bus.publish({ type: "visitor.typing", workspaceId: "w1", agentId: "a1", conversationId, typing: true, at: new Date().toISOString() });
    await until(() => gotA.length === 1 && gotB.length === 1);
    await settle();
    const typing = { role: "visitor", typing: true, name: null };
    expect({ gotA, gotB }).toEqual({ gotA: [typing], gotB: [typing] });
  });

  it("security: socket_id exclusion holds across processes: the socket on A that caused the event does not receive it from B", async () => {
    const [sender, otherOnA, otherOnB] = [clientOn(reverbA, a), clientOn(reverbA, a), clientOn(reverbB, b)];
    const channels = [sender, otherOnA, otherOnB].map((pusher) => pusher.subscribe("private-echo"));
    await Promise.all(channels.map(subscribed));
    const got = channels.map((channel) => recorder(channel, "note"));
    await b.pusherServer.trigger("private-echo", "note", { n: 1 }, { socket_id: sender.connection.socket_id });
    await until(() => got[1]!.length === 1 && got[2]!.length === 1);
    const fences = channels.map((channel) => recorder(channel, "fence"));
    await b.pusherServer.trigger("private-echo", "fence", {});
    await until(() => fences.every((fence) => fence.length === 1));
    expect(got).toEqual([[], [{ n: 1 }], [{ n: 1 }]]);
  });

  it("happy: a member's client event on a presence channel reaches the members on both processes with its user_id, not its sender; operatorsOnline on B counts an operator on A", async () => {
    const workspaceId = randomUUID();
    const channelName = `presence-conversation-operators.${randomUUID()}`;
    const member = (reverb: ReverbDescriptor, t: ListeningTestApp, id: string) => {
      const pusher = signedPusherClient(reverb, t.pusherServer, { user_id: id, user_info: { name: id } });
      clients.push(pusher);
      return pusher.subscribe(channelName);
    };
    const [sender, otherOnA, otherOnB] = [member(reverbA, a, "op_ana"), member(reverbA, a, "op_bea"), member(reverbB, b, "op_cy")];
    await Promise.all([sender, otherOnA, otherOnB].map(subscribed));
    const heard = [sender, otherOnA, otherOnB].map((channel) => {
      const got: unknown[] = [];
      channel.bind("client-typing", (data: unknown, metadata?: { user_id?: string }) => got.push({ data, from: metadata?.user_id }));
      return got;
    });
    sender.trigger("client-typing", { typing: true });
    await until(() => heard[1]!.length === 1 && heard[2]!.length === 1);
    const fences = [sender, otherOnA, otherOnB].map((channel) => recorder(channel, "fence"));
    await b.pusherServer.trigger(channelName, "fence", {});
    await until(() => fences.every((fence) => fence.length === 1));
    const typing = { data: { typing: true }, from: "op_ana" };
    expect(heard).toEqual([[], [typing], [typing]]);

    expect(await operatorsOnline(b.services, workspaceId)).toBe(false);
    const operator = signedPusherClient(reverbA, a.pusherServer, { user_id: "op_ana", user_info: { name: "Ana" } });
    clients.push(operator);
    await subscribed(operator.subscribe(`presence-operators.${workspaceId}`));
    expect(await operatorsOnline(b.services, workspaceId)).toBe(true);
    operator.disconnect();
    await until(async () => !(await operatorsOnline(b.services, workspaceId)));
  });

  it("security: a deployment with another FRONTDESK_REDIS_PREFIX on the same Redis sees none of these events", async () => {
    const stranger = await createListeningTestApp("pglite", { FRONTDESK_REDIS_URL: redisUrl, FRONTDESK_REDIS_PREFIX: `frontdesk-test-${randomUUID()}:` });
    try {
      const onStranger = signedPusherClient(await reverbFromInit(stranger), stranger.pusherServer);
      clients.push(onStranger);
      const onA = clientOn(reverbA, a);
      const [strangerChannel, channelA] = [onStranger.subscribe("private-shared-name"), onA.subscribe("private-shared-name")];
      await Promise.all([subscribed(strangerChannel), subscribed(channelA)]);
      expect(await processesListening(inspector, prefix)).toBe(2);
      const [gotStranger, gotA] = [recorder(strangerChannel, "secret"), recorder(channelA, "secret")];
      await b.pusherServer.trigger("private-shared-name", "secret", { for: "our deployment" });
      await until(() => gotA.length === 1);
      await settle();
      expect(gotStranger).toEqual([]);
    } finally {
      await stranger.close();
    }
  });
});

describeNeeding("redis")("realtime fan-out while Redis is down", () => {
  it("error: Redis lost and back: local clients keep receiving, one warning and one recovery line, and events cross processes again", async () => {
    const redis = await ThrowawayRedis.start();
    const prefix = `frontdesk-test-${randomUUID()}:`;
    const { logger, lines } = capturedLogger();
    const environment = { FRONTDESK_REDIS_URL: redis.url, FRONTDESK_REDIS_PREFIX: prefix };
    const a = await createListeningTestApp("pglite", environment);
    const b = await createListeningTestApp("pglite", environment, { logger });
    const inspector = new Redis(redis.url, { lazyConnect: true, retryStrategy: () => 100 });
    inspector.on("error", () => undefined);
    const clients: Pusher[] = [];
    try {
      await inspector.connect();
      await until(async () => (await processesListening(inspector, prefix)) === 2);
      const onA = signedPusherClient(await reverbFromInit(a), a.pusherServer);
      const onB = signedPusherClient(await reverbFromInit(b), b.pusherServer);
      clients.push(onA, onB);
      await Promise.all([connected(onA), connected(onB)]);
      const [channelA, channelB] = [onA.subscribe("private-outage"), onB.subscribe("private-outage")];
      await Promise.all([subscribed(channelA), subscribed(channelB)]);
      const [gotA, gotB] = [recorder(channelA, "n"), recorder(channelB, "n")];

      await redis.kill();
      // The HTTP API answers and B's own client still receives, though no other process can.
      await b.pusherServer.trigger("private-outage", "n", { during: "outage" });
      await b.pusherServer.trigger("private-outage", "n", { during: "outage again" });
      await until(() => gotB.length === 2);
      const realtimeLines = (level: number) => lines.filter((line) => line.level === level && String(line.msg).startsWith("Realtime fan-out: Redis at"));
      await until(() => realtimeLines(LOG_LEVELS.warn).length === 1);

      await redis.restart();
      await until(async () => (await processesListening(inspector, prefix).catch(() => 0)) === 2, 20_000);
      await until(() => realtimeLines(LOG_LEVELS.info).length === 1, 20_000);
      await b.pusherServer.trigger("private-outage", "n", { during: "after" });
      await until(() => gotA.length === 1 && gotB.length === 3);
      expect(gotA).toEqual([{ during: "after" }]);
      expect(realtimeLines(LOG_LEVELS.warn)).toHaveLength(1);
      expect(realtimeLines(LOG_LEVELS.info)[0]!.msg).toContain("answers again");
    } finally {
      for (const pusher of clients) pusher.disconnect();
      inspector.disconnect();
      await Promise.all([a.close(), b.close()]);
      await redis.kill();
    }
  }, 90_000);
});
