import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import Pusher from "pusher";
import type { Logger } from "pino";
import { z } from "zod";
import { AppError } from "../http/app-error.js";
import { channelNameProblem, kindOfChannel } from "./channels/channel-name.js";
import type { ChannelCredentials } from "./channels/channel-signature.js";
import type { Realtime } from "./realtime.js";

/** Pusher Channels' limits, which every compatible server accepts: events per batch, characters per channel name. */
const EVENTS_PER_BATCH = 10;
const CHANNEL_NAME_LENGTH = 200;
/** Requests under way at once, each for its own share of the channels (a channel always in the same lane). */
const LANES = 4;
/** Events waiting in a lane while its request is under way; past this the oldest are dropped (and counted). */
const MAX_QUEUED_EVENTS_PER_LANE = 2_500;

export interface PusherDriverOptions {
  /** `scheme://host:port` of the external server's Pusher HTTP API. */
  apiUrl: string;
  /** How long one request may take before it is abandoned. */
  timeoutMs: number;
  credentials: ChannelCredentials & { appId: string };
  logger: Logger;
}

/** A share of the channels: its queue, and the request under way for it. */
interface Lane {
  queue: Pusher.BatchEvent[];
  sending: Promise<void> | null;
}

/** The lane of a channel (FNV-1a of its name), so a channel's events keep their order. */
function laneOf(channel: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < channel.length; index += 1) hash = Math.imul(hash ^ channel.charCodeAt(index), 0x01000193);
  return (hash >>> 0) % LANES;
}

const usersResponseSchema = z.object({ users: z.array(z.object({ id: z.string() })) });
const userCountResponseSchema = z.object({ user_count: z.number().int().nonnegative() });

/** Why a request failed, in a few words: never the signed URL the library puts in its messages. */
function causeOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Pusher.RequestError) {
    if (error.status !== undefined) return `HTTP ${error.status}${error.body ? `: ${String(error.body).slice(0, 200)}` : ""}`;
    const inner: unknown = error.error;
    if (inner instanceof Error && inner.name === "AbortError") return `no answer within ${timeoutMs} ms`;
    if (inner instanceof Error) return ("code" in inner && typeof inner.code === "string" ? inner.code : inner.message) || inner.name;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * The `pusher` driver: an external Pusher-compatible server (Pusher Channels, soketi, Reverb, a
 * `frontdesk realtime` process) serves the WebSockets; the service publishes to it through its
 * HTTP API with the official `pusher` library, and signs subscriptions with its key and secret.
 *
 * Publishing never waits on that server: events join the queue of their channel's lane; each of
 * the four lanes sends one request at a time, up to ten events per `batch_events` request, so a
 * channel's events arrive in the order they were published; a request is abandoned after
 * `timeoutMs`. When a request fails, its events and those queued behind it in its lane are dropped (clients fetch what they
 * missed by `seq`), and the failure is logged once until a request succeeds again. Who is present
 * is asked of the server each time (`GET /channels/{name}/users`, or `?info=user_count` for a count);
 * while it does not answer, nobody is. Subscriptions are not revoked: rights are checked when they are signed only.
 */
export function createPusherDriver(options: PusherDriverOptions): Realtime {
  const { apiUrl, timeoutMs, credentials, logger } = options;
  const url = new URL(apiUrl);
  const secure = url.protocol === "https:";
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  const pusher = new Pusher({
    appId: credentials.appId,
    key: credentials.appKey,
    secret: credentials.appSecret,
    host: url.hostname,
    port: url.port || (secure ? "443" : "80"),
    useTLS: secure,
    timeout: timeoutMs,
    agent,
  });

  const lanes: Lane[] = Array.from({ length: LANES }, () => ({ queue: [], sending: null }));
  let failure: string | null = null;
  let dropped = 0;
  let closed = false;

  // One warning when the server stops answering (publishing or asking who is present), one line when it answers again.
  const failed = (error: unknown) => {
    if (failure !== null) return;
    failure = causeOf(error, timeoutMs);
    logger.warn(
      { api: apiUrl, cause: failure },
      `Realtime: the external server at ${apiUrl} does not answer (${failure}); events are dropped and presence reads as empty until it does`,
    );
  };
  const succeeded = () => {
    if (failure === null) return;
    logger.info({ api: apiUrl, dropped }, `Realtime: the external server at ${apiUrl} answers again (${dropped} events dropped meanwhile)`);
    failure = null;
    dropped = 0;
  };

  const sendQueued = async ({ queue }: Lane) => {
    while (queue.length > 0) {
      const batch = queue.splice(0, EVENTS_PER_BATCH);
      try {
        const [only] = batch;
        if (batch.length === 1 && only) {
          await pusher.trigger(only.channel, only.name, only.data, only.socket_id ? { socket_id: only.socket_id } : undefined);
        } else {
          await pusher.triggerBatch(batch);
        }
        succeeded();
      } catch (error) {
        dropped += batch.length + queue.length;
        queue.length = 0;
        failed(error);
      }
    }
  };
  const drain = (lane: Lane) => {
    lane.sending ??= sendQueued(lane).finally(() => {
      lane.sending = null;
      if (lane.queue.length > 0) drain(lane);
    });
  };

  return {
    driver: "pusher",
    credentials,
    sharing: () =>
      failure === null
        ? { shared: true, degraded: false }
        : { shared: false, degraded: true, reason: `realtime: the external server at ${apiUrl} does not answer (${failure}); events are dropped` },
    async publish(input) {
      if (closed) return;
      for (const channel of input.channels) {
        const problem = channelNameProblem(channel, CHANNEL_NAME_LENGTH);
        if (problem) {
          logger.error({ channel, event: input.event }, `Realtime: not published, ${problem}`);
          continue;
        }
        const lane = lanes[laneOf(channel)] as Lane;
        lane.queue.push({ channel, name: input.event, data: input.data, ...(input.exceptSocketId ? { socket_id: input.exceptSocketId } : {}) });
        if (lane.queue.length > MAX_QUEUED_EVENTS_PER_LANE) dropped += lane.queue.splice(0, lane.queue.length - MAX_QUEUED_EVENTS_PER_LANE).length;
        drain(lane);
      }
    },
    // The Pusher HTTP API has no way to end one socket's subscription (its terminate_connections
    // works on users signed in with pusher:signin, which the service does not use): nothing recorded, nothing revoked.
    async grant() {},
    async revoke() {},
    async presenceMembers(channel) {
      if (kindOfChannel(channel) !== "presence" || channelNameProblem(channel, CHANNEL_NAME_LENGTH)) {
        throw new AppError("bad_request", "Only presence channels have members.");
      }
      try {
        // Channel names have only characters a path segment may carry as they are.
        const body: unknown = await (await pusher.get({ path: `/channels/${channel}/users` })).json();
        const users = usersResponseSchema.parse(body).users;
        succeeded();
        // The HTTP API names users, not their `user_info`.
        return users.map((user) => ({ userId: user.id, userInfo: null }));
      } catch (error) {
        failed(error);
        return [];
      }
    },
    async presenceUserCount(channel) {
      if (kindOfChannel(channel) !== "presence" || channelNameProblem(channel, CHANNEL_NAME_LENGTH)) {
        throw new AppError("bad_request", "Only presence channels have users.");
      }
      try {
        const body: unknown = await (await pusher.get({ path: `/channels/${channel}`, params: { info: "user_count" } })).json();
        const { user_count } = userCountResponseSchema.parse(body);
        succeeded();
        return user_count;
      } catch (error) {
        failed(error);
        return 0;
      }
    },
    connectionCount: 0,
    embedded: null,
    async close() {
      if (closed) return;
      closed = true;
      // What is queued goes out if the server answers; a server that does not is waited for at most one timeout.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(lanes.map((lane) => lane.sending)), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      agent.destroy();
    },
  };
}
