import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { Logger } from "pino";
import { RedisRealtimeKeys } from "./redis-realtime-keys.js";
import { runScript, scripts, type RedisScript } from "./redis-realtime-scripts.js";
import { watchRedisHealth, type RedisHealth, type RedisHealthMessages } from "../../ratelimit/redis-health.js";

/** A Redis that stalls must not stall a subscription: past this the process answers from its own view. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;

export interface RedisRealtimeNodeOptions {
  url: string;
  /** Begins every key (FRONTDESK_REDIS_PREFIX). */
  prefix: string;
  /** A process silent this long is swept: its sockets leave their presence channels. */
  expirySeconds: number;
  logger?: Logger | undefined;
}

/** A user who left a presence channel because the process holding its last socket did. */
export interface DepartedMember {
  channel: string;
  userId: string;
}

/** What a node says of Redis: logged once each way, and given to /healthz while it is down. */
const nodeRedisMessages: RedisHealthMessages = {
  lost: (address) => `Realtime presence: Redis at ${address} is unreachable, presence and channel counts are this process's own until it answers again`,
  recovered: (address) => `Realtime presence: Redis at ${address} answers again, presence is shared between processes again`,
  unavailable: (address, cause) => `realtime: Redis at ${address} is unreachable (${cause}); presence, channel counts and events are this process's own`,
};

/** Said when Redis cannot be used now: the caller answers from this process's own view. */
export class RedisUnavailableError extends Error {
  constructor() {
    super("Redis is unreachable");
  }
}

/**
 * This process as one node of the deployment's realtime state in Redis. It registers under a
 * random id in `<prefix>realtime:nodes` and beats every third of the expiry; at each beat it
 * sweeps the nodes silent past the expiry (one script, so exactly one live node removes a dead
 * one) and tells its listeners who left with them. When it finds itself swept while alive, or Redis
 * answers again after an outage, it registers again and asks its resyncers to rewrite what this
 * process holds (its presence sockets, its subscription counts) from its own view.
 *
 * While Redis is unreachable `call` throws RedisUnavailableError at once (the loss is logged once,
 * the recovery once); the heartbeat keeps probing.
 */
export class RedisRealtimeNode {
  readonly id = randomUUID();
  readonly keys: RedisRealtimeKeys;
  private readonly redis: Redis;
  private readonly health: RedisHealth;
  readonly expiryMs: number;
  private readonly resyncers: (() => Promise<void>)[] = [];
  private readonly departureListeners: ((departed: DepartedMember[]) => Promise<void>)[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Whether a heartbeat has registered this node since Redis last failed. */
  private registered = false;
  private resyncing: Promise<void> | null = null;
  private resyncAgain = false;
  /** Set when close begins: no beat, registration or resync may write after the node leaves. */
  private leaving = false;
  private closing = false;

  constructor(private readonly options: RedisRealtimeNodeOptions) {
    this.keys = new RedisRealtimeKeys(options.prefix);
    this.expiryMs = Math.round(options.expirySeconds * 1000);
    this.redis = new Redis(options.url, {
      enableOfflineQueue: false,
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
    });
    // Loss and recovery are logged once each way; a closed connection must register again.
    this.health = watchRedisHealth(this.redis, options.url, { logger: options.logger, messages: nodeRedisMessages });
    this.redis.on("close", () => {
      this.registered = false;
    });
    this.redis.on("ready", () => void this.beat());
  }

  /** Connects and starts beating; resolves once registered, or once the first attempt has failed. */
  async start(): Promise<void> {
    const intervalMs = Math.max(100, Math.floor(this.expiryMs / 3));
    this.timer = setInterval(() => void this.beat(), intervalMs);
    this.timer.unref();
    try {
      await this.redis.connect();
      await this.beat();
    } catch (error) {
      this.markLost(error instanceof Error ? error.message : String(error));
    }
  }

  /** Why the shared state is not in use (Redis failed and has not answered since); null otherwise, starting included. */
  get unavailableReason(): string | null {
    const status = this.health.status();
    return status.up ? null : (status.reason ?? "realtime: Redis is unreachable");
  }

  get available(): boolean {
    return this.registered && this.health.status().up && this.redis.status === "ready";
  }

  /** Called (in order) after every registration: rewrite this process's share of the shared state. */
  onResync(resync: () => Promise<void>): void {
    this.resyncers.push(resync);
  }

  /** Called with the users who left their presence channels when a node was swept (or this one closed). */
  onDeparture(listener: (departed: DepartedMember[]) => Promise<void>): void {
    this.departureListeners.push(listener);
  }

  /**
   * Runs a script whose first key is the node set and first argument this node's id. A reply of
   * -1 (or {-1}) means this node was swept: it registers again, resyncs in the background, and
   * the script runs once more (unless `retry` is false: the resync rewrites what it would have written,
   * and a write that is not idempotent must not land twice). Throws RedisUnavailableError while Redis cannot be used.
   */
  async call(script: RedisScript, keys: string[], args: (string | number)[], retry = true): Promise<unknown> {
    const once = async () => {
      if (!this.available) throw new RedisUnavailableError();
      try {
        return await runScript(this.redis, script, keys, args);
      } catch (error) {
        this.markLost(error instanceof Error ? error.message : String(error));
        throw new RedisUnavailableError();
      }
    };
    const reply = await once();
    if (!isUnregistered(reply)) return reply;
    await this.register();
    return retry ? once() : reply;
  }

  /** A plain command's reply (reads such as HGETALL), under the same availability rules as `call`. */
  async command<T>(run: (redis: Redis) => Promise<T>): Promise<T> {
    if (!this.available) throw new RedisUnavailableError();
    try {
      return await run(this.redis);
    } catch (error) {
      this.markLost(error instanceof Error ? error.message : String(error));
      throw new RedisUnavailableError();
    }
  }

  /** One heartbeat, then a sweep of the dead. Any failure marks Redis lost; the next beat probes again. */
  private async beat(): Promise<void> {
    if (this.leaving || this.redis.status !== "ready") return;
    try {
      const known = await runScript(this.redis, scripts.heartbeat, [this.keys.nodes], [this.id]);
      const rejoined = !this.registered;
      this.registered = true;
      this.health.succeeded();
      if (known === 0 || rejoined) this.resync();
      const departed = await runScript(this.redis, scripts.sweep, [this.keys.nodes], [this.keys.base, this.expiryMs, this.id]);
      await this.announce(departed);
    } catch (error) {
      this.markLost(error instanceof Error ? error.message : String(error));
    }
  }

  private async register(): Promise<void> {
    if (this.leaving) throw new RedisUnavailableError();
    try {
      await runScript(this.redis, scripts.heartbeat, [this.keys.nodes], [this.id]);
    } catch (error) {
      this.markLost(error instanceof Error ? error.message : String(error));
      throw new RedisUnavailableError();
    }
    this.resync();
  }

  /** Rewrites this node's share of the state; one at a time, and once more if asked again meanwhile. */
  private resync(): void {
    if (this.leaving) return;
    if (this.resyncing) {
      this.resyncAgain = true;
      return;
    }
    this.resyncing = (async () => {
      do {
        this.resyncAgain = false;
        for (const resync of this.resyncers) {
          try {
            await resync();
          } catch (error) {
            if (!(error instanceof RedisUnavailableError)) this.options.logger?.error({ err: error }, "Realtime: rewriting this process's presence in Redis failed");
          }
        }
      } while (this.resyncAgain && this.available && !this.leaving);
      this.resyncing = null;
    })();
  }

  private async announce(reply: unknown): Promise<void> {
    const departed: DepartedMember[] = [];
    if (Array.isArray(reply)) {
      for (let index = 0; index + 1 < reply.length; index += 2) departed.push({ channel: String(reply[index]), userId: String(reply[index + 1]) });
    }
    if (departed.length === 0) return;
    for (const listener of this.departureListeners) await listener(departed);
  }

  /** A command failed on a connection ioredis may still think open: Redis counts as lost until a beat answers. */
  private markLost(cause: string): void {
    if (this.closing) return;
    this.registered = false;
    this.health.failed(cause);
  }

  /** Waits for a resync under way, then leaves the node set (its sockets' users are announced as departed) and disconnects. */
  async close(): Promise<void> {
    this.leaving = true;
    if (this.timer) clearInterval(this.timer);
    await this.resyncing;
    if (this.available) {
      try {
        await this.announce(await runScript(this.redis, scripts.removeNode, [this.keys.nodes], [this.keys.base, this.id]));
      } catch {
        // Redis went away meanwhile: the other nodes sweep this one after the expiry.
      }
    }
    this.closing = true;
    this.health.stop();
    this.redis.disconnect();
  }
}

/** A script's reply saying its node is not registered: -1, or a table starting with -1. */
export function isUnregistered(reply: unknown): boolean {
  return reply === -1 || (Array.isArray(reply) && reply[0] === -1);
}
