import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { z } from "zod";
import type { ChannelMessage, FanOutAdapter, LocalSubscribers, RightsMessage } from "./fan-out-adapter.js";
import { watchRedisHealth, type RedisHealthMessages } from "../../ratelimit/redis-health.js";

/** A Redis that stalls must not stall a publish: past this the message reaches this process only. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;

export interface RedisFanOutOptions {
  url: string;
  /** Begins every Redis channel name, so deployments can share one Redis. */
  prefix: string;
  logger?: Logger | undefined;
}

/** What travels on the Redis channel: a channel message or channel rights, and the process that published it. */
const envelopeSchema = z.union([
  z.object({ origin: z.string(), channel: z.string(), frame: z.string(), exceptSocketId: z.string().optional() }),
  z.object({
    origin: z.string(),
    rights: z.discriminatedUnion("kind", [
      z.object({ kind: z.literal("grant"), socketId: z.string(), channel: z.string(), channelData: z.string().optional(), principals: z.array(z.string()) }),
      z.object({ kind: z.literal("revoke"), principals: z.array(z.string()), reason: z.string() }),
    ]),
  }),
]);

/** The Redis pub/sub channel every process of a deployment (one prefix) publishes its events on. */
export function redisEventsChannel(prefix: string): string {
  return `${prefix}realtime:events`;
}

/** What the fan-out says of Redis: logged once each way, and given to /healthz while it is down. */
const fanOutRedisMessages: RedisHealthMessages = {
  lost: (address) => `Realtime fan-out: Redis at ${address} is unreachable, events reach this process's clients only until it answers again`,
  recovered: (address) => `Realtime fan-out: Redis at ${address} answers again, events are shared between processes again`,
  unavailable: (address, cause) => `realtime: events do not reach the other processes: Redis at ${address} is unreachable or refuses them (${cause})`,
};

/** How long a subscriber whose SUBSCRIBE was refused waits before asking again. */
const RESUBSCRIBE_DELAY_MS = 1_000;

/**
 * Shares channel messages between processes through Redis pub/sub. A process delivers what it
 * publishes to its own subscribers at once, and ignores its own message when Redis echoes it back,
 * so every process delivers each message exactly once. The socket to leave out travels with the
 * message: whichever process holds that socket skips it. Channel rights (grants and revocations)
 * travel the same way, in the same order as the events. While Redis is unreachable (either
 * connection down, or the subscription not in place) messages reach this process's subscribers
 * only, which is logged once and reported by `status`; ioredis reconnects, and the adapter
 * subscribes again after every reconnection (and retries a refused SUBSCRIBE).
 */
export function redisFanOutAdapter(options: RedisFanOutOptions): (local: LocalSubscribers) => FanOutAdapter {
  return (local) => {
    const origin = randomUUID();
    const channel = redisEventsChannel(options.prefix);
    const connection = { enableOfflineQueue: false, connectTimeout: REDIS_CONNECT_TIMEOUT_MS } as const;
    // Auto-pipelining: the events published in one tick (a batch of inits' conversation.started) leave in one write.
    const publisher = new Redis(options.url, {
      ...connection,
      maxRetriesPerRequest: 1,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      lazyConnect: true,
      enableAutoPipelining: true,
    });
    // The subscriber subscribes itself at every connection, so that it knows when its subscription is in place.
    const subscriber = new Redis(options.url, { connectTimeout: REDIS_CONNECT_TIMEOUT_MS, maxRetriesPerRequest: null, lazyConnect: true, autoResubscribe: false });
    let subscribed = false;
    let closing = false;
    let retry: NodeJS.Timeout | null = null;
    const health = watchRedisHealth([publisher, subscriber], options.url, { logger: options.logger, messages: fanOutRedisMessages, inPlace: () => subscribed });

    const subscribe = () => {
      if (closing || subscriber.status !== "ready") return;
      subscriber.subscribe(channel).then(
        () => {
          subscribed = true;
          health.succeeded();
        },
        (error: unknown) => {
          subscribed = false;
          health.failed(error);
          retry ??= setTimeout(() => {
            retry = null;
            subscribe();
          }, RESUBSCRIBE_DELAY_MS);
          retry.unref();
        },
      );
    };
    subscriber.on("ready", subscribe);
    subscriber.on("close", () => {
      subscribed = false;
    });
    // This process's own messages, as it serialises them (`origin` first): their echo is dropped unparsed.
    const ownEnvelopeStart = `{"origin":${JSON.stringify(origin)},`;
    subscriber.on("message", (from: string, text: string) => {
      if (from !== channel || text.startsWith(ownEnvelopeStart)) return;
      let envelope: z.infer<typeof envelopeSchema>;
      try {
        envelope = envelopeSchema.parse(JSON.parse(text));
      } catch {
        return;
      }
      if (envelope.origin === origin) return;
      if ("rights" in envelope) return local.applyRights(envelope.rights);
      local.deliver({ channel: envelope.channel, frame: envelope.frame, exceptSocketId: envelope.exceptSocketId });
    });
    void publisher.connect().catch(() => undefined);
    void subscriber.connect().catch(() => undefined);

    /** Sends an envelope (`origin` first) to the other processes; while Redis is unreachable it reaches none (false), which is counted. */
    const share = async (envelope: { origin: string } & Record<string, unknown>): Promise<boolean> => {
      if (publisher.status !== "ready") {
        health.fallbacks.count += 1;
        return false;
      }
      try {
        await publisher.publish(channel, JSON.stringify(envelope));
        health.succeeded();
        return true;
      } catch (error) {
        health.fallbacks.count += 1;
        health.failed(error);
        return false;
      }
    };

    return {
      async publish(message: ChannelMessage) {
        local.deliver(message);
        await share({ origin, channel: message.channel, frame: message.frame, ...(message.exceptSocketId ? { exceptSocketId: message.exceptSocketId } : {}) });
      },
      async publishRights(message: RightsMessage) {
        local.applyRights(message);
        return share({ origin, rights: message });
      },
      status: () => health.status(),
      async close() {
        closing = true;
        health.stop();
        if (retry) clearTimeout(retry);
        // Nothing is left to send: dropping the connections never waits on a Redis that does not answer.
        publisher.disconnect();
        subscriber.disconnect();
      },
    };
  };
}
