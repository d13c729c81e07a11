import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { z } from "zod";
import type { ChannelMessage, FanOutAdapter, LocalSubscribers } from "./fan-out-adapter.js";
import { redisAddress } from "../../ratelimit/redis-health.js";

/** A Redis that stalls must not stall a publish: past this the message reaches this process only. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;

export interface RedisFanOutOptions {
  url: string;
  /** Begins every Redis channel name, so deployments can share one Redis. */
  prefix: string;
  logger?: Logger | undefined;
}

/** What travels on the Redis channel: a channel message, and the process that published it. */
const envelopeSchema = z.object({
  origin: z.string(),
  channel: z.string(),
  frame: z.string(),
  exceptSocketId: z.string().optional(),
});

/** The Redis pub/sub channel every process of a deployment (one prefix) publishes its events on. */
export function redisEventsChannel(prefix: string): string {
  return `${prefix}realtime:events`;
}

/**
 * Shares channel messages between processes through Redis pub/sub. A process delivers what it
 * publishes to its own subscribers at once, and ignores its own message when Redis echoes it back,
 * so every process delivers each message exactly once. The socket to leave out travels with the
 * message: whichever process holds that socket skips it. While Redis is unreachable messages
 * reach this process's subscribers only (logged once); ioredis reconnects and resubscribes.
 */
export function redisFanOutAdapter(options: RedisFanOutOptions): (local: LocalSubscribers) => FanOutAdapter {
  return (local) => {
    const origin = randomUUID();
    const channel = redisEventsChannel(options.prefix);
    const address = redisAddress(options.url);
    const connection = { enableOfflineQueue: false, connectTimeout: REDIS_CONNECT_TIMEOUT_MS } as const;
    const publisher = new Redis(options.url, { ...connection, maxRetriesPerRequest: 1, commandTimeout: REDIS_COMMAND_TIMEOUT_MS, lazyConnect: true });
    // The subscriber queues its SUBSCRIBE until connected; ioredis subscribes again after every reconnection.
    const subscriber = new Redis(options.url, { connectTimeout: REDIS_CONNECT_TIMEOUT_MS, maxRetriesPerRequest: null, lazyConnect: true });
    let lost: string | null = null;
    let closing = false;

    const markLost = (cause: string) => {
      if (lost !== null || closing) return;
      lost = cause;
      options.logger?.warn({ redis: address, cause }, `Realtime fan-out: Redis at ${address} is unreachable, events reach this process's clients only until it answers again`);
    };
    const markRecovered = () => {
      if (lost === null || publisher.status !== "ready" || subscriber.status !== "ready") return;
      lost = null;
      options.logger?.info({ redis: address }, `Realtime fan-out: Redis at ${address} answers again, events are shared between processes again`);
    };
    for (const redis of [publisher, subscriber]) {
      let lastError = "connection closed";
      redis.on("error", (error: Error) => {
        lastError = error.message;
      });
      redis.on("close", () => markLost(lastError));
      redis.on("ready", markRecovered);
    }

    subscriber.on("message", (from: string, text: string) => {
      if (from !== channel) return;
      let envelope: z.infer<typeof envelopeSchema>;
      try {
        envelope = envelopeSchema.parse(JSON.parse(text));
      } catch {
        return;
      }
      if (envelope.origin === origin) return;
      local.deliver({ channel: envelope.channel, frame: envelope.frame, exceptSocketId: envelope.exceptSocketId });
    });
    void publisher.connect().catch(() => undefined);
    void subscriber.connect().catch(() => undefined);
    void subscriber.subscribe(channel).catch(() => undefined);

    return {
      async publish(message: ChannelMessage) {
        local.deliver(message);
        if (publisher.status !== "ready") return;
        const envelope = { origin, channel: message.channel, frame: message.frame, ...(message.exceptSocketId ? { exceptSocketId: message.exceptSocketId } : {}) };
        try {
          await publisher.publish(channel, JSON.stringify(envelope));
          markRecovered();
        } catch (error) {
          markLost(error instanceof Error ? error.message : String(error));
        }
      },
      async close() {
        closing = true;
        // Nothing is left to send: dropping the connections never waits on a Redis that does not answer.
        publisher.disconnect();
        subscriber.disconnect();
      },
    };
  };
}
