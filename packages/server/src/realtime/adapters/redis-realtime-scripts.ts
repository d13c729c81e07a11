import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/**
 * The Lua scripts that keep presence, subscription and connection counts in Redis (key layout:
 * redis-realtime-keys.ts). Each runs atomically, so two processes never interleave halves of an
 * update, and exactly one process wins a sweep. Every write first checks that its process is still
 * registered: a process swept while alive (its heartbeats lost) is told so (-1) and registers again
 * instead of writing keys that no sweep would ever clean.
 */
export interface RedisScript {
  readonly lua: string;
  readonly sha: string;
}

function script(lua: string): RedisScript {
  return { lua, sha: createHash("sha1").update(lua).digest("hex") };
}

/** Runs a script by its digest, sending its text only when Redis does not know it yet. */
export async function runScript(redis: Redis, { lua, sha }: RedisScript, keys: string[], args: (string | number)[]): Promise<unknown> {
  try {
    return await redis.evalsha(sha, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
    return redis.eval(lua, keys.length, ...keys, ...args);
  }
}

/** Redis's clock in milliseconds: every process scores heartbeats on the same clock. */
const NOW = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
`;

/** Removes a process: its sockets leave their presence channels; returns {channel, user id, …} of the users who left with them. */
const REMOVE_NODE = `
local function removeNode(base, node)
  local removed = {}
  local presenceKey = base .. 'node:' .. node .. ':presence'
  local sockets = redis.call('HGETALL', presenceKey)
  for i = 1, #sockets, 2 do
    local field, userId = sockets[i], sockets[i + 1]
    local channel = string.sub(field, 1, string.find(field, '\\n', 1, true) - 1)
    local key = base .. 'presence:' .. channel .. ':'
    if redis.call('HINCRBY', key .. 'sockets', userId, -1) <= 0 then
      redis.call('HDEL', key .. 'sockets', userId)
      redis.call('HDEL', key .. 'info', userId)
      redis.call('ZREM', key .. 'order', userId)
      table.insert(removed, channel)
      table.insert(removed, userId)
    end
  end
  redis.call('DEL', presenceKey, base .. 'node:' .. node .. ':subscriptions', base .. 'node:' .. node .. ':connections')
  redis.call('ZREM', base .. 'nodes', node)
  return removed
end
`;

export const scripts = {
  /** KEYS: nodes. ARGV: node id. Beats; 1 when the process was registered, 0 when it registers anew. */
  heartbeat: script(`${NOW}
local known = redis.call('ZSCORE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], now, ARGV[1])
if known then return 1 end
return 0`),

  /** KEYS: nodes. ARGV: base, expiry (ms), own node id. Removes every process silent past the expiry; returns who left. */
  sweep: script(`${NOW}${REMOVE_NODE}
local removed = {}
for _, node in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[2])))) do
  if node ~= ARGV[3] then
    for _, value in ipairs(removeNode(ARGV[1], node)) do table.insert(removed, value) end
  end
end
return removed`),

  /** KEYS: nodes. ARGV: base, node id. A process leaving for good (shutdown); returns who left with it. */
  removeNode: script(`${REMOVE_NODE}
return removeNode(ARGV[1], ARGV[2])`),

  /**
   * A socket joining a presence channel, in one round trip. KEYS: nodes, node presence, channel
   * sockets, channel info, channel order, node subscriptions. ARGV: node id, socket field, user id,
   * user info, channel, mode. Mode `subscribe`: a socket new here is also counted as one of the
   * channel's subscriptions on this node, and the reply carries the members; `list`: the members
   * without counting; `rewrite` (a resync, whose counts are rewritten apart): neither. Replies {1, members…} when the
   * user is new to the channel, {0, members…} when not (or the socket was there), {-1} unregistered;
   * members as user id, user info, … in the order they joined.
   */
  join: script(`
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {-1} end
local added = 0
if redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[3]) == 1 then
  if ARGV[6] == 'subscribe' then redis.call('HINCRBY', KEYS[6], ARGV[5], 1) end
  if redis.call('HINCRBY', KEYS[3], ARGV[3], 1) == 1 then
    redis.call('HSET', KEYS[4], ARGV[3], ARGV[4])
    local clock = redis.call('TIME')
    redis.call('ZADD', KEYS[5], 'NX', tonumber(clock[1]) * 1000000 + tonumber(clock[2]), ARGV[3])
    added = 1
  end
end
local result = {added}
if ARGV[6] == 'rewrite' then return result end
for _, userId in ipairs(redis.call('ZRANGE', KEYS[5], 0, -1)) do
  table.insert(result, userId)
  table.insert(result, redis.call('HGET', KEYS[4], userId) or 'null')
end
return result`),

  /**
   * KEYS: nodes, node presence, channel sockets, channel info, channel order, node subscriptions.
   * ARGV: node id, socket field, channel, mode. Mode `unsubscribe` also uncounts the socket's
   * subscription (`rewrite`: a resync, whose counts are rewritten apart). {1, user id} when it was
   * the user's last socket on the channel, {0} when not (or unknown), {-1} unregistered.
   */
  leave: script(`
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {-1} end
local userId = redis.call('HGET', KEYS[2], ARGV[2])
if not userId then return {0} end
redis.call('HDEL', KEYS[2], ARGV[2])
if ARGV[4] == 'unsubscribe' and redis.call('HINCRBY', KEYS[6], ARGV[3], -1) <= 0 then redis.call('HDEL', KEYS[6], ARGV[3]) end
if redis.call('HINCRBY', KEYS[3], userId, -1) > 0 then return {0} end
redis.call('HDEL', KEYS[3], userId)
redis.call('HDEL', KEYS[4], userId)
redis.call('ZREM', KEYS[5], userId)
return {1, userId}`),

  /** KEYS: channel info, channel order. The members in the order they joined: {user id, user info, …}. */
  members: script(`
local result = {}
for _, userId in ipairs(redis.call('ZRANGE', KEYS[2], 0, -1)) do
  table.insert(result, userId)
  table.insert(result, redis.call('HGET', KEYS[1], userId) or 'null')
end
return result`),

  /**
   * KEYS: nodes, a node's counts (its subscriptions per channel, or its sockets per address). ARGV:
   * node id, field (channel or address), +1 or -1. The process's new count, or -1 unregistered.
   */
  countOnNode: script(`
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return -1 end
local count = redis.call('HINCRBY', KEYS[2], ARGV[2], tonumber(ARGV[3]))
if count <= 0 then redis.call('HDEL', KEYS[2], ARGV[2]) end
return count`),

  /** KEYS: nodes, a node's counts (as countOnNode). ARGV: node id, then field, count, … Replaces the process's counts; -1 unregistered. */
  replaceNodeCounts: script(`
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return -1 end
redis.call('DEL', KEYS[2])
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
return 1`),

  /**
   * KEYS: nodes. ARGV: base, expiry (ms), own node id, channel prefix. Subscriptions per channel
   * whose name begins with the prefix, of every live process but this one: {channel, count, …}.
   */
  liveSubscriptions: script(`${NOW}
local totals, order = {}, {}
local prefix = ARGV[4] or ''
for _, node in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[2]), '+inf')) do
  if node ~= ARGV[3] then
    local counts = redis.call('HGETALL', ARGV[1] .. 'node:' .. node .. ':subscriptions')
    for i = 1, #counts, 2 do
      if string.sub(counts[i], 1, #prefix) == prefix then
        if not totals[counts[i]] then table.insert(order, counts[i]) end
        totals[counts[i]] = (totals[counts[i]] or 0) + tonumber(counts[i + 1])
      end
    end
  end
end
local result = {}
for _, channel in ipairs(order) do
  table.insert(result, channel)
  table.insert(result, totals[channel])
end
return result`),

  /** KEYS: nodes. ARGV: base, expiry (ms), own node id, channel. One channel's subscriptions on every live process but this one. */
  liveSubscriptionCount: script(`${NOW}
local total = 0
for _, node in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[2]), '+inf')) do
  if node ~= ARGV[3] then
    total = total + tonumber(redis.call('HGET', ARGV[1] .. 'node:' .. node .. ':subscriptions', ARGV[4]) or 0)
  end
end
return total`),

  /**
   * A socket from a client address, admitted while the address holds fewer than the limit on every
   * live process. KEYS: nodes, node connections. ARGV: node id, base, expiry (ms), address, limit.
   * 1 admitted (counted on this node), 0 refused, -1 unregistered (nothing counted).
   */
  admitConnection: script(`${NOW}
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return -1 end
local total = 0
for _, node in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[3]), '+inf')) do
  total = total + tonumber(redis.call('HGET', ARGV[2] .. 'node:' .. node .. ':connections', ARGV[4]) or 0)
end
if total >= tonumber(ARGV[5]) then return 0 end
redis.call('HINCRBY', KEYS[2], ARGV[4], 1)
return 1`),

  /** KEYS: the join-order key of each presence channel. How many users each has, counted (ZCARD), not listed. */
  userCounts: script(`
local result = {}
for _, key in ipairs(KEYS) do table.insert(result, redis.call('ZCARD', key)) end
return result`),
};
