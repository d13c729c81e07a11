import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Channel } from "pusher-js";
import { expect, it } from "vitest";
import { redisEventsChannel } from "../../src/realtime/adapters/redis-adapter.js";
import type { Pusher } from "../support/pusher-client.js";
import { connected, createListeningTestApp, signedPusherClient, until, type ListeningTestApp, type ReverbDescriptor } from "../support/realtime-clients.js";
import { describeNeeding } from "../support/test-legs.js";
import { monitorRedis, type Executed } from "./redis-monitor.js";

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", reject);
  });

describeNeeding("redis")("the HTTP API's counts on a shared Redis", () => {
  it("happy: subscription_count and user_count add up both processes, and are counted in Redis (HGET, ZCARD) without reading member lists, users only when asked", async () => {
    const prefix = `frontdesk-test-${randomUUID()}:`;
    const environment = { FRONTDESK_REDIS_URL: redisUrl, FRONTDESK_REDIS_PREFIX: prefix };
    const [a, b] = await Promise.all([createListeningTestApp("pglite", environment), createListeningTestApp("pglite", environment)]);
    const inspector = new Redis(redisUrl);
    const executed: Executed[] = [];
    const monitor = monitorRedis(redisUrl, executed);
    const clients: Pusher[] = [];
    try {
      await until(async () => (await inspector.zcard(`${prefix}realtime:nodes`)) === 2);
      await until(async () => Number(((await inspector.pubsub("NUMSUB", redisEventsChannel(prefix))) as [string, number])[1]) === 2);
      /** How many commands MONITOR has shown once it has caught up with everything sent so far (a fence it must show). */
      const caughtUp = async () => {
        const fence = `fence-${randomUUID()}`;
        await inspector.echo(fence);
        await until(() => executed.some((entry) => entry.args.includes(fence)));
        return executed.length;
      };
      /** The name of every command Redis ran (sent by a client or by a script) that names `channelName`, since `from`. */
      const commandsNaming = async (channelName: string, from: number) => {
        await caughtUp();
        return executed
          .slice(from)
          .filter((entry) => entry.args.some((arg) => arg.includes(channelName)))
          .map((entry) => entry.args[0]?.toLowerCase() ?? "")
          .filter((name) => name !== "evalsha" && name !== "eval")
          .sort();
      };
      const join = async (at: ListeningTestApp, channelName: string, userId: string) => {
        const reverb: ReverbDescriptor = { app_key: "frontdesk", host: "127.0.0.1", port: at.port, scheme: "ws" };
        const pusher = signedPusherClient(reverb, at.pusherServer, { user_id: userId, user_info: { name: userId } });
        clients.push(pusher);
        await connected(pusher);
        await subscribed(pusher.subscribe(channelName));
      };
      const get = async (path: string, params: Record<string, string> = {}) => {
        const response = await a.pusherServer.get({ path, params });
        expect(response.status).toBe(200);
        return (await response.json()) as unknown;
      };

      const room = `presence-room.${randomUUID()}`;
      // Ada with two tabs and Bob on A, Carol on B: four sockets, three users.
      await join(a, room, "ada");
      await join(a, room, "ada");
      await join(a, room, "bob");
      await join(b, room, "carol");
      await join(a, `private-other.${randomUUID()}`, "dan");
      // A first request loads the scripts into Redis.
      await get(`/channels/${room}`, { info: "subscription_count,user_count" });

      // `from` is taken once MONITOR has shown the earlier requests' commands, which may still be on their way.
      let from = await caughtUp();
      expect(await get(`/channels/${room}`, { info: "subscription_count,user_count" })).toEqual({ occupied: true, subscription_count: 4, user_count: 3 });
      // B's count of the room (HGET of one field), and the number of users (ZCARD): no member list, no whole hash.
      expect(await commandsNaming(room, from)).toEqual(["hget", "zcard"]);

      from = await caughtUp();
      expect(await get(`/channels/${room}`)).toEqual({ occupied: true });
      expect(await commandsNaming(room, from)).toEqual(["hget"]);

      from = await caughtUp();
      expect(await get("/channels", { info: "user_count,subscription_count" })).toMatchObject({ channels: { [room]: { user_count: 3, subscription_count: 4 } } });
      expect(await get("/channels", { info: "user_count" })).toMatchObject({ channels: { [room]: { user_count: 3 } } });
      expect(await commandsNaming(room, from)).toEqual(["zcard", "zcard"]);

      from = await caughtUp();
      expect(await get("/channels")).toMatchObject({ channels: { [room]: {} } });
      expect(await get("/channels", { filter_by_prefix: "presence-room." })).toEqual({ channels: { [room]: {} } });
      expect(await commandsNaming(room, from)).toEqual([]);
    } finally {
      for (const pusher of clients) pusher.disconnect();
      monitor.kill();
      inspector.disconnect();
      await Promise.all([a.close(), b.close()]);
    }
  }, 90_000);
});
