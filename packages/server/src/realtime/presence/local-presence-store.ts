import type { PresenceMember, PresenceStore } from "./presence-store.js";

interface Membership {
  userInfo: unknown;
  sockets: Set<string>;
}

/** Presence membership kept in this process: channel → user → the sockets it is present with. */
export function createLocalPresenceStore(): PresenceStore {
  const channels = new Map<string, Map<string, Membership>>();
  const userOfSocket = new Map<string, string>();
  const socketKey = (channel: string, socketId: string) => `${channel}\n${socketId}`;

  const membersOf = (channel: string): PresenceMember[] => {
    const users = channels.get(channel);
    if (!users) return [];
    return [...users].map(([userId, membership]) => ({ userId, userInfo: membership.userInfo }));
  };
  const joined = (channel: string, socketId: string, member: PresenceMember): boolean => {
    let users = channels.get(channel);
    if (!users) channels.set(channel, (users = new Map()));
    const key = socketKey(channel, socketId);
    if (userOfSocket.has(key)) return false;
    userOfSocket.set(key, member.userId);
    const existing = users.get(member.userId);
    if (existing) {
      existing.sockets.add(socketId);
      return false;
    }
    users.set(member.userId, { userInfo: member.userInfo, sockets: new Set([socketId]) });
    return true;
  };

  // The subscriptions of this process are counted where they are kept (LocalChannels): nothing to count here.
  return {
    async join(channel, socketId, member) {
      const added = joined(channel, socketId, member);
      return { added, members: membersOf(channel) };
    },
    async leave(channel, socketId) {
      const key = socketKey(channel, socketId);
      const userId = userOfSocket.get(key);
      if (userId === undefined) return { removedUserId: null };
      userOfSocket.delete(key);
      const users = channels.get(channel);
      const membership = users?.get(userId);
      if (!users || !membership) return { removedUserId: null };
      membership.sockets.delete(socketId);
      if (membership.sockets.size > 0) return { removedUserId: null };
      users.delete(userId);
      if (users.size === 0) channels.delete(channel);
      return { removedUserId: userId };
    },
    async members(channel) {
      return membersOf(channel);
    },
    async userCounts(names) {
      return new Map(names.map((channel) => [channel, channels.get(channel)?.size ?? 0]));
    },
    async close() {
      channels.clear();
      userOfSocket.clear();
    },
  };
}
