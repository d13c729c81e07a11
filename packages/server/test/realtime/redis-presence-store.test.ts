import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { createRedisChannelOccupancy } from "../../src/realtime/adapters/redis-channel-occupancy.js";
import { RedisRealtimeNode } from "../../src/realtime/adapters/redis-realtime-node.js";
import type { ChannelOccupancy } from "../../src/realtime/channels/channel-occupancy.js";
import { LocalChannels } from "../../src/realtime/channels/local-channels.js";
import { createRedisPresenceStore } from "../../src/realtime/presence/redis-presence-store.js";
import type { PresenceMember, PresenceStore } from "../../src/realtime/presence/presence-store.js";
import { capturedLogger, LOG_LEVELS, type LogLine } from "../support/captured-log.js";
import { until } from "../support/realtime-clients.js";
import { describeNeeding } from "../support/test-legs.js";
import { ThrowawayRedis } from "../support/throwaway-redis.js";

const machineRedisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const CHANNEL = "presence-operators.w1";

/** What a node's store announced by itself (members of swept nodes, rewrites after an outage). */
interface Announcement {
  kind: "added" | "removed";
  channel: string;
  userId: string;
}

/** One process's share of the realtime state: a Redis node, its presence store and its subscription counts. */
interface TestNode {
  node: RedisRealtimeNode;
  presence: PresenceStore;
  occupancy: ChannelOccupancy;
  local: LocalChannels;
  announced: Announcement[];
}

const member = (userId: string, name = userId): PresenceMember => ({ userId, userInfo: { name } });
const ids = (members: PresenceMember[]) => members.map((entry) => entry.userId);

describeNeeding("redis")("the Redis presence store: two nodes on one Redis", () => {
  const started: TestNode[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((entry) => entry.presence.close()));
  });

  async function startNode(url: string, prefix: string, expirySeconds = 2, logger?: ReturnType<typeof capturedLogger>["logger"]): Promise<TestNode> {
    const node = new RedisRealtimeNode({ url, prefix, expirySeconds, logger });
    const announced: Announcement[] = [];
    const presence = createRedisPresenceStore(node, {
      memberAdded: async (channel, added) => void announced.push({ kind: "added", channel, userId: added.userId }),
      memberRemoved: async (channel, userId) => void announced.push({ kind: "removed", channel, userId }),
    });
    const local = new LocalChannels();
    const occupancy = createRedisChannelOccupancy(node, local);
    await node.start();
    await until(() => node.available);
    const entry = { node, presence, occupancy, local, announced };
    started.push(entry);
    return entry;
  }

  /** A socket subscribing on `at`, as ChannelSubscriptions does it: here, then counted (a presence channel's count comes with the join). */
  async function subscribe(at: TestNode, channel: string, socketId: string) {
    if (at.local.add(channel, { socketId, send: () => undefined }) && !channel.startsWith("presence-")) await at.occupancy.subscribed(channel);
  }

  it("happy: a user with a socket on each node is added once, and removed only when its last socket (on either node) leaves", async () => {
    const prefix = `frontdesk-test-${randomUUID()}:`;
    const [a, b] = await Promise.all([startNode(machineRedisUrl, prefix), startNode(machineRedisUrl, prefix)]);
    expect(await a.presence.join(CHANNEL, "1.1", member("ada", "Ada"))).toMatchObject({ added: true });
    expect(await b.presence.join(CHANNEL, "2.1", member("ada", "Ada on B"))).toMatchObject({ added: false });
    // The join answers the members too (in the order they joined), itself included.
    expect(await b.presence.join(CHANNEL, "2.2", member("bob"))).toEqual({ added: true, members: [member("ada", "Ada"), member("bob")] });
    // The same socket joining twice is still one socket.
    expect(await a.presence.join(CHANNEL, "1.1", member("ada"))).toMatchObject({ added: false });
    for (const at of [a, b]) expect(await at.presence.members(CHANNEL)).toEqual([member("ada", "Ada"), member("bob")]);

    expect(await a.presence.leave(CHANNEL, "1.1")).toEqual({ removedUserId: null });
    expect(ids(await a.presence.members(CHANNEL))).toEqual(["ada", "bob"]);
    expect(await a.presence.leave(CHANNEL, "1.1")).toEqual({ removedUserId: null });
    expect(await b.presence.leave(CHANNEL, "2.1")).toEqual({ removedUserId: "ada" });
    expect(ids(await a.presence.members(CHANNEL))).toEqual(["bob"]);
    expect(await b.presence.leave(CHANNEL, "2.2")).toEqual({ removedUserId: "bob" });
    expect(await a.presence.members(CHANNEL)).toEqual([]);
    expect([...a.announced, ...b.announced]).toEqual([]);
  });

  it("happy: subscription counts add up every node's sockets, on whichever node asks", async () => {
    const prefix = `frontdesk-test-${randomUUID()}:`;
    const [a, b] = await Promise.all([startNode(machineRedisUrl, prefix), startNode(machineRedisUrl, prefix)]);
    await subscribe(a, "private-room", "1.1");
    await subscribe(a, "private-room", "1.2");
    await subscribe(b, "private-room", "2.1");
    await subscribe(b, "alerts", "2.2");
    for (const at of [a, b]) expect(Object.fromEntries(await at.occupancy.subscriptionCounts())).toEqual({ "private-room": 3, alerts: 1 });
    a.local.remove("private-room", "1.1");
    await a.occupancy.unsubscribed("private-room");
    expect(Object.fromEntries(await b.occupancy.subscriptionCounts())).toEqual({ "private-room": 2, alerts: 1 });
  });

  it("error: a node that stops beating is swept once: its users who have no socket elsewhere are announced removed by exactly one live node", async () => {
    const prefix = `frontdesk-test-${randomUUID()}:`;
    // The silent node beats every 20 s; the live ones take a node silent for 1 s for dead.
    const silent = await startNode(machineRedisUrl, prefix, 60);
    const [b, c] = await Promise.all([startNode(machineRedisUrl, prefix, 1), startNode(machineRedisUrl, prefix, 1)]);
    await silent.presence.join(CHANNEL, "1.1", member("ada"));
    await silent.presence.join(CHANNEL, "1.2", member("ada"));
    await silent.presence.join(CHANNEL, "1.3", member("bob"));
    await b.presence.join(CHANNEL, "2.1", member("bob"));
    await subscribe(silent, CHANNEL, "1.1");
    await subscribe(b, CHANNEL, "2.1");
    expect(ids(await b.presence.members(CHANNEL))).toEqual(["ada", "bob"]);

    await until(() => b.announced.length + c.announced.length > 0, 10_000);
    // A few more sweeps by both live nodes find nothing more to remove.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect([...b.announced, ...c.announced]).toEqual([{ kind: "removed", channel: CHANNEL, userId: "ada" }]);
    expect(await c.presence.members(CHANNEL)).toEqual([member("bob")]);
    expect(Object.fromEntries(await c.occupancy.subscriptionCounts())).toEqual({ [CHANNEL]: 1 });
  });

  it("error: a node swept while alive finds out at its next write, registers again and rewrites its members, announcing them once", async () => {
    const prefix = `frontdesk-test-${randomUUID()}:`;
    const swept = await startNode(machineRedisUrl, prefix, 60);
    const sweeper = await startNode(machineRedisUrl, prefix, 1);
    await swept.presence.join(CHANNEL, "1.1", member("ada"));
    await subscribe(swept, "private-room", "1.1");
    await until(() => sweeper.announced.length === 1, 10_000);
    expect(await sweeper.presence.members(CHANNEL)).toEqual([]);

    // Its next subscription tells it it was swept: ada is written back (and announced), carol joins.
    expect(await swept.presence.join(CHANNEL, "1.2", member("carol"))).toMatchObject({ added: true });
    await until(() => swept.announced.length === 1);
    expect(swept.announced).toEqual([{ kind: "added", channel: CHANNEL, userId: "ada" }]);
    expect(ids(await sweeper.presence.members(CHANNEL)).sort()).toEqual(["ada", "carol"]);
    await until(async () => (await sweeper.occupancy.subscriptionCounts()).get("private-room") === 1);
  });

  it("security: every key the realtime layer writes begins with FRONTDESK_REDIS_PREFIX, and a closed node leaves none behind", async () => {
    const redis = await ThrowawayRedis.start();
    const inspector = new Redis(redis.url);
    try {
      const prefix = `acme-${randomUUID()}:`;
      const [a, b] = await Promise.all([startNode(redis.url, prefix), startNode(redis.url, prefix)]);
      await a.presence.join(CHANNEL, "1.1", member("ada"));
      await b.presence.join(CHANNEL, "2.1", member("ada"));
      await subscribe(a, CHANNEL, "1.1");
      await subscribe(b, "alerts", "2.1");
      const keys = await inspector.keys("*");
      expect(keys.length).toBeGreaterThan(4);
      expect(keys.filter((key) => !key.startsWith(`${prefix}realtime:`))).toEqual([]);

      await a.presence.close();
      await b.presence.leave(CHANNEL, "2.1");
      await b.presence.close();
      started.splice(0);
      expect(await inspector.keys("*")).toEqual([]);
    } finally {
      inspector.disconnect();
      await redis.kill();
    }
  });

  it("error: Redis lost and back (empty): each node answers from its own sockets meanwhile, logs once each way, and rewrites its members on recovery", async () => {
    const redis = await ThrowawayRedis.start();
    const prefix = `frontdesk-test-${randomUUID()}:`;
    const { logger, lines } = capturedLogger();
    try {
      const a = await startNode(redis.url, prefix, 2, logger);
      const b = await startNode(redis.url, prefix, 2);
      await a.presence.join(CHANNEL, "1.1", member("ada"));
      await b.presence.join(CHANNEL, "2.1", member("bob"));
      await subscribe(a, CHANNEL, "1.1");

      await redis.kill();
      const presenceLines = (level: number) => lines.filter((line: LogLine) => line.level === level && String(line.msg).startsWith("Realtime presence: Redis at"));
      // A's own view: ada is there, bob (on B) is not; carol joins and leaves on A alone.
      expect(await a.presence.join(CHANNEL, "1.2", member("carol"))).toMatchObject({ added: true });
      expect(ids(await a.presence.members(CHANNEL))).toEqual(["ada", "carol"]);
      expect(Object.fromEntries(await a.occupancy.subscriptionCounts())).toEqual({ [CHANNEL]: 1 });
      await a.presence.join(CHANNEL, "1.3", member("dan"));
      expect(await a.presence.leave(CHANNEL, "1.3")).toEqual({ removedUserId: "dan" });
      await until(() => presenceLines(LOG_LEVELS.warn).length === 1);

      await redis.restart();
      await until(() => a.node.available && b.node.available, 20_000);
      await until(async () => ids(await b.presence.members(CHANNEL)).sort().join() === "ada,bob,carol", 10_000);
      expect(ids(await a.presence.members(CHANNEL)).sort()).toEqual(["ada", "bob", "carol"]);
      await until(async () => (await b.occupancy.subscriptionCounts()).get(CHANNEL) === 1);
      // Redis came back empty: each node announced the members it wrote back, once; dan, who came and
      // went meanwhile, is announced gone (clients that never had him ignore it).
      expect(a.announced.filter((entry) => entry.kind === "added").map((entry) => entry.userId).sort()).toEqual(["ada", "carol"]);
      expect(a.announced.filter((entry) => entry.kind === "removed")).toEqual([{ kind: "removed", channel: CHANNEL, userId: "dan" }]);
      expect(b.announced).toEqual([{ kind: "added", channel: CHANNEL, userId: "bob" }]);
      await until(() => presenceLines(LOG_LEVELS.info).length === 1);
      expect(presenceLines(LOG_LEVELS.warn)).toHaveLength(1);
    } finally {
      await redis.kill();
    }
  }, 60_000);

  it("error: a Redis that stops answering (frozen) does not hold up a join: it is answered from the node's own sockets, and written to Redis once it answers", async () => {
    const redis = await ThrowawayRedis.start();
    const prefix = `frontdesk-test-${randomUUID()}:`;
    try {
      const [a, b] = await Promise.all([startNode(redis.url, prefix, 3), startNode(redis.url, prefix, 3)]);
      await b.presence.join(CHANNEL, "2.1", member("bob"));
      redis.pause();
      // The first command waits for its timeout (500 ms), then Redis counts as lost and the rest answer at once.
      expect(await a.presence.join(CHANNEL, "1.1", member("ada"))).toMatchObject({ added: true });
      expect(await a.presence.members(CHANNEL)).toEqual([member("ada")]);
      redis.resume();
      // The timed-out join may have run once Redis woke; either way the other nodes hear of ada once.
      await until(() => a.node.available && a.announced.length > 0, 10_000);
      expect(ids(await b.presence.members(CHANNEL))).toEqual(["bob", "ada"]);
      expect(ids(await a.presence.members(CHANNEL))).toEqual(["bob", "ada"]);
      expect(a.announced).toEqual([{ kind: "added", channel: CHANNEL, userId: "ada" }]);
    } finally {
      redis.resume();
      await redis.kill();
    }
  }, 30_000);
});
