import { kindOfChannel } from "../channels/channel-name.js";
import type { RealtimeServer } from "../realtime-server.js";

/** The attributes a caller asked for with `info=subscription_count,user_count`. */
export function requestedInfo(info: string | undefined): { subscriptionCount: boolean; userCount: boolean } {
  const names = new Set((info ?? "").split(",").map((name) => name.trim()));
  return { subscriptionCount: names.has("subscription_count"), userCount: names.has("user_count") };
}

/**
 * One channel's occupancy, with the attributes asked for (user_count only for presence channels):
 * counted, never listed, and users counted only when asked.
 */
export async function describeChannel(realtime: RealtimeServer, channel: string, info: string | undefined) {
  const wanted = requestedInfo(info);
  const wantsUsers = wanted.userCount && kindOfChannel(channel) === "presence";
  const [subscriptionCount, userCounts] = await Promise.all([realtime.subscriptionCount(channel), wantsUsers ? realtime.userCounts([channel]) : null]);
  const userCount = userCounts?.get(channel);
  return {
    occupied: subscriptionCount > 0,
    ...(wanted.subscriptionCount ? { subscription_count: subscriptionCount } : {}),
    ...(userCount === undefined ? {} : { user_count: userCount }),
  };
}
