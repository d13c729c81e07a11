import { randomBytes, randomUUID } from "node:crypto";
import { connect, type Socket } from "node:net";
import { Redis } from "ioredis";
import type { Channel } from "pusher-js";
import { expect, it } from "vitest";
import { redisEventsChannel } from "../../src/realtime/adapters/redis-adapter.js";
import { signSubscription } from "../../src/realtime/channels/channel-signature.js";
import { capturedLogger, LOG_LEVELS } from "../support/captured-log.js";
import type { Pusher } from "../support/pusher-client.js";
import { maskedTextFrame } from "../support/raw-websocket.js";
import { createListeningTestApp, rawClient, signedPusherClient, socketIdOf, until, type ReverbDescriptor } from "../support/realtime-clients.js";
import { TEST_REALTIME_SECRET } from "../support/test-app.js";
import { describeNeeding } from "../support/test-legs.js";

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const CHANNEL = "presence-operators.shutdown";
const credentials = { appKey: "frontdesk", appSecret: TEST_REALTIME_SECRET };

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", reject);
  });

/**
 * A WebSocket client on a bare TCP socket that never answers the server's close frame (a library
 * client always does), with the text frames the server sent it (unmasked), parsed.
 */
async function unresponsiveClient(port: number): Promise<{ socket: Socket; frames: { event: string; data?: unknown }[] }> {
  const socket = connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const frames: { event: string; data?: unknown }[] = [];
  let buffered = Buffer.alloc(0);
  let upgraded = false;
  socket.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    if (!upgraded) {
      const end = buffered.indexOf("\r\n\r\n");
      if (end === -1) return;
      upgraded = true;
      buffered = buffered.subarray(end + 4);
    }
    for (;;) {
      if (buffered.length < 2) return;
      const opcode = (buffered[0] ?? 0) & 0x0f;
      let length = (buffered[1] ?? 0) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffered.length < 4) return;
        length = buffered.readUInt16BE(2);
        offset = 4;
      }
      if (buffered.length < offset + length) return;
      const payload = buffered.subarray(offset, offset + length);
      buffered = buffered.subarray(offset + length);
      if (opcode === 1) frames.push(JSON.parse(payload.toString("utf8")) as { event: string; data?: unknown });
    }
  });
  socket.write(
    `GET /app/frontdesk?protocol=7 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  return { socket, frames };
}

/** A presence subscription signed for `socketId` as `userId`. */
function presenceSubscribe(channel: string, socketId: string, userId: string) {
  const channelData = JSON.stringify({ user_id: userId, user_info: { name: userId } });
  return { event: "pusher:subscribe", data: { channel, auth: signSubscription(credentials, socketId, channel, channelData), channel_data: channelData } };
}

describeNeeding("redis")("shutdown of a process with presence members, on a shared Redis", () => {
  it("error: closing the service lets every socket leave its presence channel before the store closes: nothing is logged as an error, Redis keeps none of its members, and each user is announced gone once", async () => {
    const prefix = `frontdesk-test-${randomUUID()}:`;
    const environment = { FRONTDESK_REDIS_URL: redisUrl, FRONTDESK_REDIS_PREFIX: prefix };
    const { logger, lines } = capturedLogger();
    const a = await createListeningTestApp("pglite", environment, { logger });
    const b = await createListeningTestApp("pglite", environment);
    const inspector = new Redis(redisUrl);
    const clients: Pusher[] = [];
    const unresponsiveSockets: Socket[] = [];
    let aClosed = false;
    try {
      const nodes = `${prefix}realtime:nodes`;
      await until(async () => (await inspector.zcard(nodes)) === 2);
      await until(async () => Number(((await inspector.pubsub("NUMSUB", redisEventsChannel(prefix))) as [string, number])[1]) === 2);
      // An observer on B sees who comes and goes on A.
      const observer = rawClient(`ws://127.0.0.1:${b.port}/app/frontdesk?protocol=7`);
      observer.send(presenceSubscribe(CHANNEL, await socketIdOf(observer), "observer"));
      await observer.next("pusher_internal:subscription_succeeded");

      const reverbA: ReverbDescriptor = { app_key: "frontdesk", host: "127.0.0.1", port: a.port, scheme: "ws" };
      for (const userId of ["ada", "bob"]) {
        const pusher = signedPusherClient(reverbA, a.pusherServer, { user_id: userId, user_info: { name: userId } });
        clients.push(pusher);
        await subscribed(pusher.subscribe(CHANNEL));
      }
      // Carol's clients never answer the close frame: the server cuts them off after its grace.
      const everyoneOnA = ["ada", "bob"];
      for (const userId of ["carol-1", "carol-2", "carol-3"]) {
        const unresponsive = await unresponsiveClient(a.port);
        unresponsiveSockets.push(unresponsive.socket);
        await until(() => unresponsive.frames.some((frame) => frame.event === "pusher:connection_established"));
        const established = unresponsive.frames.find((frame) => frame.event === "pusher:connection_established");
        const socketId = (JSON.parse(String(established?.data)) as { socket_id: string }).socket_id;
        unresponsive.socket.write(maskedTextFrame(JSON.stringify(presenceSubscribe(CHANNEL, socketId, userId))));
        await until(() => unresponsive.frames.some((frame) => frame.event === "pusher_internal:subscription_succeeded"));
        everyoneOnA.push(userId);
      }
      // Dan's clients still have subscriptions on their way (a queue of them) when the service closes.
      const late = await Promise.all(["dan-1", "dan-2", "dan-3"].map(async (userId) => {
        const client = rawClient(`ws://127.0.0.1:${a.port}/app/frontdesk?protocol=7`);
        return { client, userId, socketId: await socketIdOf(client) };
      }));
      await until(() => everyoneOnA.every((userId) => observer.frames.some((frame) => frame.event === "pusher_internal:member_added" && String(frame.data).includes(`"${userId}"`))));

      for (const { client, userId, socketId } of late) {
        client.send(presenceSubscribe(CHANNEL, socketId, userId));
        for (let index = 0; index < 30; index++) client.send(presenceSubscribe(`presence-filler.${index}`, socketId, userId));
      }
      await a.close();
      aClosed = true;

      // Once closed, Redis holds B alone, and B's observer alone on the channel.
      expect(await inspector.zcard(nodes)).toBe(1);
      expect(await inspector.hgetall(`${prefix}realtime:presence:${CHANNEL}:sockets`)).toEqual({ observer: "1" });
      expect(await inspector.zrange(`${prefix}realtime:presence:${CHANNEL}:order`, 0, -1)).toEqual(["observer"]);
      expect(lines.filter((line) => line.level >= LOG_LEVELS.error)).toEqual([]);

      // A fence published after A closed, behind anything A published: every departure has reached the observer by then.
      await inspector.publish(redisEventsChannel(prefix), JSON.stringify({ origin: "test", channel: CHANNEL, frame: JSON.stringify({ event: "fence", channel: CHANNEL, data: "{}" }) }));
      await observer.next("fence");
      // Replayed in order, the announcements leave nobody of A's on the channel, and nobody is announced gone twice.
      const present = new Set<string>();
      const announcedTwice: string[] = [];
      for (const frame of observer.frames) {
        if (frame.event !== "pusher_internal:member_added" && frame.event !== "pusher_internal:member_removed") continue;
        const { user_id: userId } = JSON.parse(String(frame.data)) as { user_id: string };
        if (frame.event === "pusher_internal:member_added") present.add(userId);
        else if (!present.delete(userId)) announcedTwice.push(userId);
      }
      expect({ present: [...present], announcedTwice }).toEqual({ present: [], announcedTwice: [] });
      expect(lines.filter((line) => line.level >= LOG_LEVELS.error)).toEqual([]);
      observer.socket.close();
    } finally {
      for (const pusher of clients) pusher.disconnect();
      for (const socket of unresponsiveSockets) socket.destroy();
      inspector.disconnect();
      if (!aClosed) await a.close();
      await b.close();
    }
  }, 90_000);
});
