import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { PresenceChannel } from "pusher-js";
import { expect, it } from "vitest";
import { redisEventsChannel } from "../../src/realtime/adapters/redis-adapter.js";
import type { Pusher } from "../support/pusher-client.js";
import { connected, createListeningTestApp, signedPusherClient, until, type ReverbDescriptor } from "../support/realtime-clients.js";
import { describeNeeding } from "../support/test-legs.js";
import { monitorRedis, type Executed } from "./redis-monitor.js";

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

const subscribed = (channel: PresenceChannel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", reject);
  });

describeNeeding("redis")("presence on a shared Redis: one round trip per join and per leave", () => {
  it("happy: a presence subscription reaches Redis in one command (membership, subscription count and members together), a departure in one, and member_added still comes only for a user new to the channel", async () => {
    const prefix = `frontdesk-test-${randomUUID()}:`;
    const t = await createListeningTestApp("pglite", { FRONTDESK_REDIS_URL: redisUrl, FRONTDESK_REDIS_PREFIX: prefix });
    const inspector = new Redis(redisUrl);
    const clients: Pusher[] = [];
    const executed: Executed[] = [];
    const monitor = monitorRedis(redisUrl, executed);
    try {
      await until(async () => {
        await inspector.echo("monitor-started");
        return executed.some((entry) => entry.args.includes("monitor-started"));
      });
      await until(async () => (await inspector.zcard(`${prefix}realtime:nodes`)) === 1);
      await until(async () => Number(((await inspector.pubsub("NUMSUB", redisEventsChannel(prefix))) as [string, number])[1]) === 1);
      const reverb: ReverbDescriptor = { app_key: "frontdesk", host: "127.0.0.1", port: t.port, scheme: "ws" };
      const join = async (channelName: string, userId: string) => {
        const pusher = signedPusherClient(reverb, t.pusherServer, { user_id: userId, user_info: { name: userId } });
        clients.push(pusher);
        await connected(pusher);
        const channel = pusher.subscribe(channelName) as PresenceChannel;
        await subscribed(channel);
        return { pusher, channel };
      };
      /** What clients (not scripts) sent Redis naming `channelName` since `from`, once a fence shows MONITOR has caught up; fan-out's PUBLISH aside. */
      const roundTrips = async (channelName: string, from: number) => {
        const fence = `fence-${randomUUID()}`;
        await inspector.echo(fence);
        await until(() => executed.some((entry) => entry.args.includes(fence)));
        return executed
          .slice(from)
          .filter((entry) => entry.source !== "lua" && entry.args[0]?.toLowerCase() !== "publish" && entry.args.some((arg) => arg.includes(channelName)))
          .map((entry) => entry.args[0]?.toLowerCase());
      };

      // A first subscription and departure load the scripts into Redis (a digest Redis does not know yet costs one more command).
      const warmUp = `presence-warm-up.${randomUUID()}`;
      const warm = await join(warmUp, "warm");
      const watcher = await join(warmUp, "watcher");
      warm.pusher.unsubscribe(warmUp);
      await until(() => watcher.channel.members.count === 1);
      const room = `presence-room.${randomUUID()}`;
      let from = executed.length;
      const ada = await join(room, "ada");
      expect(await roundTrips(room, from)).toEqual(["evalsha"]);
      expect(ada.channel.members.count).toBe(1);

      const added: string[] = [];
      ada.channel.bind("pusher:member_added", (member: { id: string }) => added.push(member.id));
      from = executed.length;
      // Ada's second tab: no member_added; Bob: one, and his subscription lists both.
      await join(room, "ada");
      const bob = await join(room, "bob");
      await until(() => added.length === 1);
      expect(await roundTrips(room, from)).toEqual(["evalsha", "evalsha"]);
      expect(added).toEqual(["bob"]);
      expect(Object.keys(bob.channel.members.members as Record<string, unknown>).sort()).toEqual(["ada", "bob"]);

      from = executed.length;
      bob.pusher.unsubscribe(room);
      await until(() => ada.channel.members.count === 1);
      expect(await roundTrips(room, from)).toEqual(["evalsha"]);
    } finally {
      for (const pusher of clients) pusher.disconnect();
      monitor.kill();
      inspector.disconnect();
      await t.close();
    }
  }, 90_000);
});
