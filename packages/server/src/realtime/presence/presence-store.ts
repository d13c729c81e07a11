/** One user on a presence channel, as its `channel_data` said. */
export interface PresenceMember {
  userId: string;
  userInfo: unknown;
}

/** What a socket joining a presence channel learns: whether its user is new there, and who is there now (itself included). */
export interface PresenceJoin {
  added: boolean;
  members: PresenceMember[];
}

/**
 * Who is on each presence channel, counted per socket: a user with two tabs is one member, added
 * with its first socket and removed with its last. The local store serves one process; the Redis
 * store (redis-presence-store.ts) makes the membership right on every process.
 *
 * A presence channel's subscriptions are counted by the store, in the same step as the membership
 * (one round trip to a shared store per join or leave); the channel occupancy counts the others.
 */
export interface PresenceStore {
  /** Records `socketId` as `member` on `channel` and counts its subscription; `added` when the user was not on it before. */
  join(channel: string, socketId: string, member: PresenceMember): Promise<PresenceJoin>;
  /** Forgets `socketId` and its subscription; `removedUserId` when that was the user's last socket on the channel. */
  leave(channel: string, socketId: string): Promise<{ removedUserId: string | null }>;
  /** The channel's members, one per user, in the order they joined. */
  members(channel: string): Promise<PresenceMember[]>;
  /** How many users each channel has, counted without listing them (0 for an empty channel). */
  userCounts(channels: string[]): Promise<Map<string, number>>;
  close(): Promise<void>;
}

/**
 * How a store tells every subscriber about members it adds or removes by itself, outside a
 * join or leave: those of a process that died, or those a process rewrites after an outage.
 */
export interface PresenceAnnouncer {
  memberAdded(channel: string, member: PresenceMember): Promise<void>;
  memberRemoved(channel: string, userId: string): Promise<void>;
}
