/**
 * Where the realtime layer keeps its shared state in Redis, every key under the deployment's
 * FRONTDESK_REDIS_PREFIX (`frontdesk:` by default):
 *
 * - `<prefix>realtime:nodes`: a sorted set of the processes serving WebSockets, scored by their
 *   last heartbeat (Redis's own clock, in milliseconds);
 * - `<prefix>realtime:node:{id}:presence`: a process's presence sockets, `channel\nsocket_id` → user id;
 * - `<prefix>realtime:node:{id}:subscriptions`: a process's subscriptions, channel → count;
 * - `<prefix>realtime:node:{id}:connections`: a process's sockets, client address → count;
 * - `<prefix>realtime:presence:{channel}:sockets`: user id → how many sockets (on every process) it has on the channel;
 * - `<prefix>realtime:presence:{channel}:info`: user id → its `user_info` (JSON), as its first socket gave it;
 * - `<prefix>realtime:presence:{channel}:order`: user id, scored by when it joined.
 *
 * The Lua scripts (redis-realtime-scripts.ts) build the per-node and per-channel names themselves
 * from the same layout (a single Redis, not a cluster).
 */
export class RedisRealtimeKeys {
  readonly base: string;

  constructor(prefix: string) {
    this.base = `${prefix}realtime:`;
  }

  get nodes(): string {
    return `${this.base}nodes`;
  }

  nodePresence(nodeId: string): string {
    return `${this.base}node:${nodeId}:presence`;
  }

  nodeSubscriptions(nodeId: string): string {
    return `${this.base}node:${nodeId}:subscriptions`;
  }

  nodeConnections(nodeId: string): string {
    return `${this.base}node:${nodeId}:connections`;
  }

  /** The keys of one presence channel: reference counts, user info, join order. */
  presence(channel: string): [sockets: string, info: string, order: string] {
    const key = `${this.base}presence:${channel}:`;
    return [`${key}sockets`, `${key}info`, `${key}order`];
  }
}

/** A socket on a presence channel, as a field of its process's presence hash (channel names have no newline). */
export function presenceSocketField(channel: string, socketId: string): string {
  return `${channel}\n${socketId}`;
}
