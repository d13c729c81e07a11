import type { PresenceMember } from "../presence/presence-store.js";

/**
 * Frames the server sends, serialized once. As the protocol says, `data` is a JSON string inside
 * the frame, except for `pusher:error` and `pusher:subscription_error`, whose data is an object.
 */
const frame = (event: string, data: unknown, channel?: string): string =>
  JSON.stringify(channel === undefined ? { event, data } : { event, channel, data });

export const serverFrames = {
  connectionEstablished: (socketId: string, activityTimeoutSeconds: number) =>
    frame("pusher:connection_established", JSON.stringify({ socket_id: socketId, activity_timeout: activityTimeoutSeconds })),
  error: (code: number, message: string) => frame("pusher:error", { code, message }),
  ping: () => frame("pusher:ping", "{}"),
  pong: () => frame("pusher:pong", "{}"),
  subscriptionSucceeded: (channel: string, presence?: PresenceMember[]) =>
    frame("pusher_internal:subscription_succeeded", JSON.stringify(presence ? presenceData(presence) : {}), channel),
  /** pusher-js emits it on the channel; `type` is `AuthError` (refused, or its rights revoked) or `LimitReached`. */
  subscriptionError: (channel: string, status: number, error: string, type: "AuthError" | "LimitReached" = "AuthError") =>
    frame("pusher:subscription_error", { type, error, status }, channel),
  memberAdded: (channel: string, member: PresenceMember) =>
    frame("pusher_internal:member_added", JSON.stringify({ user_id: member.userId, user_info: member.userInfo }), channel),
  memberRemoved: (channel: string, userId: string) => frame("pusher_internal:member_removed", JSON.stringify({ user_id: userId }), channel),
  /** A member's client event on a presence channel, relayed with the `user_id` its signed `channel_data` gave (pusher-js passes it as the callback's metadata). */
  clientEvent: (channel: string, event: string, data: string, userId: string) => JSON.stringify({ event, channel, data, user_id: userId }),
  /** An application event; `data` is passed through as the publisher gave it. */
  event: (channel: string, event: string, data: string) => frame(event, data, channel),
};

function presenceData(members: PresenceMember[]) {
  const hash: Record<string, unknown> = {};
  for (const member of members) hash[member.userId] = member.userInfo ?? null;
  return { presence: { ids: members.map((member) => member.userId), hash, count: members.length } };
}
