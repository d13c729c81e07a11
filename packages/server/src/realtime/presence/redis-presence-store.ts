import { presenceSocketField } from "../adapters/redis-realtime-keys.js";
import { isUnregistered, RedisUnavailableError, type RedisRealtimeNode } from "../adapters/redis-realtime-node.js";
import { runScript, scripts } from "../adapters/redis-realtime-scripts.js";
import { createLocalPresenceStore } from "./local-presence-store.js";
import type { PresenceAnnouncer, PresenceJoin, PresenceMember, PresenceStore } from "./presence-store.js";

interface LocalSocket {
  channel: string;
  socketId: string;
  member: PresenceMember;
}

/**
 * Presence membership shared by every process on one Redis, counted per socket: `member_added`
 * when a user id is new to the channel on all processes, `member_removed` when its last socket on
 * any process leaves. Each process also keeps its own sockets: while Redis is unreachable it
 * answers from them alone, and on recovery (or when it finds itself swept) it rewrites them into
 * Redis, announcing the users that this makes arrive or leave. Users whose last socket was on a
 * process that died are announced as removed by the live process that sweeps it.
 */
export function createRedisPresenceStore(node: RedisRealtimeNode, announce: PresenceAnnouncer): PresenceStore {
  const own = new Map<string, LocalSocket>();
  const fallback = createLocalPresenceStore();
  // Users announced from this process's view alone while Redis was unusable (`channel\nuser id`). A
  // timed-out script may still have run, so after the resync the other processes are told what
  // Redis now says: an arrival if all the user's sockets anywhere are this process's, a departure
  // if it has none left (clients ignore the removal of a member they never had).
  const addedAlone = new Map<string, PresenceMember>();
  const removedAlone = new Set<string>();
  const nodeArgs = () => [node.keys.nodes, node.keys.nodePresence(node.id)];

  /**
   * Joins in one round trip: the membership, the subscription's count (`subscribe`) and the members
   * (unless `rewrite`). A node found swept registers again and its resync rewrites the counts, so the
   * join is sent once more without counting.
   */
  const joinInRedis = async (socket: LocalSocket, mode: "subscribe" | "rewrite"): Promise<PresenceJoin> => {
    const keys = [...nodeArgs(), ...node.keys.presence(socket.channel), node.keys.nodeSubscriptions(node.id)];
    const args = (as: "subscribe" | "list" | "rewrite") => [
      node.id,
      presenceSocketField(socket.channel, socket.socketId),
      socket.member.userId,
      JSON.stringify(socket.member.userInfo ?? null),
      socket.channel,
      as,
    ];
    let reply = await node.call(scripts.join, keys, args(mode), false);
    if (isUnregistered(reply)) reply = await node.call(scripts.join, keys, args(mode === "subscribe" ? "list" : mode), false);
    if (!Array.isArray(reply) || isUnregistered(reply)) throw new RedisUnavailableError();
    return { added: reply[0] === 1, members: membersOf(reply.slice(1)) };
  };
  /** Leaves in one round trip, uncounting the subscription unless `rewrite`. A swept node has nothing left to leave. */
  const leaveInRedis = async (channel: string, field: string, mode: "unsubscribe" | "rewrite") => {
    const keys = [...nodeArgs(), ...node.keys.presence(channel), node.keys.nodeSubscriptions(node.id)];
    const reply = await node.call(scripts.leave, keys, [node.id, field, channel, mode], false);
    return Array.isArray(reply) && reply[0] === 1 ? String(reply[1]) : null;
  };

  node.onDeparture(async (departed) => {
    for (const { channel, userId } of departed) await announce.memberRemoved(channel, userId);
  });

  // Rewrites this process's sockets: those Redis lacks join, those it holds that left meanwhile leave.
  // Each check of `own` and the script it decides are sent in the same tick, so they queue on the
  // connection before any later join or leave of the same socket.
  node.onResync(async () => {
    const inRedis = await node.command((redis) => redis.hgetall(node.keys.nodePresence(node.id)));
    const departures: Promise<void>[] = [];
    for (const field of Object.keys(inRedis)) {
      if (own.has(field)) continue;
      const channel = field.slice(0, field.indexOf("\n"));
      departures.push(
        leaveInRedis(channel, field, "rewrite").then((userId) => {
          if (userId === null) return;
          removedAlone.delete(`${channel}\n${userId}`);
          return announce.memberRemoved(channel, userId);
        }),
      );
    }
    const arrivals: Promise<void>[] = [];
    for (const [field, socket] of own) {
      if (field in inRedis) continue;
      arrivals.push(
        joinInRedis(socket, "rewrite").then(({ added }) => {
          if (!added) return;
          addedAlone.delete(`${socket.channel}\n${socket.member.userId}`);
          return announce.memberAdded(socket.channel, socket.member);
        }),
      );
    }
    await Promise.all([...departures, ...arrivals]);
    await confirmAnnouncedAlone();
  });

  const ownSocketsOf = (channel: string, userId: string) =>
    [...own.values()].filter((socket) => socket.channel === channel && socket.member.userId === userId).length;
  const confirmAnnouncedAlone = async () => {
    for (const [key, member] of addedAlone) {
      const channel = key.slice(0, key.indexOf("\n"));
      const [sockets] = node.keys.presence(channel);
      const count = Number((await node.command((redis) => redis.hget(sockets, member.userId))) ?? 0);
      addedAlone.delete(key);
      const mine = ownSocketsOf(channel, member.userId);
      if (mine > 0 && count === mine) await announce.memberAdded(channel, member);
    }
    for (const key of removedAlone) {
      const channel = key.slice(0, key.indexOf("\n"));
      const userId = key.slice(channel.length + 1);
      const [sockets] = node.keys.presence(channel);
      const count = Number((await node.command((redis) => redis.hget(sockets, userId))) ?? 0);
      removedAlone.delete(key);
      if (count === 0) await announce.memberRemoved(channel, userId);
    }
  };

  const members = async (channel: string): Promise<PresenceMember[]> => {
    try {
      const [, info, order] = node.keys.presence(channel);
      const reply = await node.command((redis) => runScript(redis, scripts.members, [info, order], []));
      return membersOf(reply);
    } catch (error) {
      if (error instanceof RedisUnavailableError) return fallback.members(channel);
      throw error;
    }
  };

  return {
    async join(channel, socketId, member) {
      const field = presenceSocketField(channel, socketId);
      if (own.has(field)) return { added: false, members: await members(channel) };
      own.set(field, { channel, socketId, member });
      // Sent before anything awaits, so a resync deciding on `own` cannot overtake it.
      const inRedis = joinInRedis({ channel, socketId, member }, "subscribe");
      const local = await fallback.join(channel, socketId, member);
      try {
        return await inRedis;
      } catch (error) {
        if (!(error instanceof RedisUnavailableError)) throw error;
        if (local.added) addedAlone.set(`${channel}\n${member.userId}`, member);
        return local;
      }
    },
    async leave(channel, socketId) {
      const field = presenceSocketField(channel, socketId);
      if (!own.delete(field)) return { removedUserId: null };
      const inRedis = leaveInRedis(channel, field, "unsubscribe");
      const local = await fallback.leave(channel, socketId);
      try {
        return { removedUserId: await inRedis };
      } catch (error) {
        if (!(error instanceof RedisUnavailableError)) throw error;
        if (local.removedUserId !== null) removedAlone.add(`${channel}\n${local.removedUserId}`);
        return local;
      }
    },
    members,
    async userCounts(channels) {
      if (channels.length === 0) return new Map();
      try {
        const keys = channels.map((channel) => node.keys.presence(channel)[2]);
        const reply = await node.command((redis) => runScript(redis, scripts.userCounts, keys, []));
        return new Map(channels.map((channel, index) => [channel, Array.isArray(reply) ? Number(reply[index] ?? 0) : 0]));
      } catch (error) {
        if (error instanceof RedisUnavailableError) return fallback.userCounts(channels);
        throw error;
      }
    },
    async close() {
      await node.close();
      own.clear();
      await fallback.close();
    },
  };
}

/** `{user id, user info JSON, …}` as members. */
function membersOf(reply: unknown): PresenceMember[] {
  if (!Array.isArray(reply)) return [];
  const members: PresenceMember[] = [];
  for (let index = 0; index + 1 < reply.length; index += 2) {
    members.push({ userId: String(reply[index]), userInfo: parseInfo(String(reply[index + 1])) });
  }
  return members;
}

function parseInfo(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
