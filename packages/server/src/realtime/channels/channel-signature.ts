import { createHmac } from "node:crypto";
import { constantTimeEqual } from "../constant-time-equal.js";

export interface ChannelCredentials {
  appKey: string;
  appSecret: string;
}

/** `key:HMAC_SHA256(secret, "socket_id:channel_name[:channel_data]")`, hex: what authorises a subscription. */
export function signSubscription(credentials: ChannelCredentials, socketId: string, channel: string, channelData?: string): string {
  const signed = channelData === undefined ? `${socketId}:${channel}` : `${socketId}:${channel}:${channelData}`;
  return `${credentials.appKey}:${createHmac("sha256", credentials.appSecret).update(signed).digest("hex")}`;
}

/** Whether `auth` is the signature of this subscription, compared in constant time. */
export function isSubscriptionSigned(
  credentials: ChannelCredentials,
  auth: string | undefined,
  socketId: string,
  channel: string,
  channelData?: string,
): boolean {
  if (auth === undefined) return false;
  return constantTimeEqual(auth, signSubscription(credentials, socketId, channel, channelData));
}
