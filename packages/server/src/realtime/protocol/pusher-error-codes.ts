/**
 * The Pusher protocol's error codes (sent in `pusher:error` and as WebSocket close codes).
 * 4000–4099: the client must not reconnect; 4100–4199: reconnect after backing off;
 * 4200–4299: reconnect at once; 4300–4399: other errors, the connection stays open.
 */
export const PusherErrorCode = {
  /** The app key is not served here. */
  appNotFound: 4001,
  /** The `protocol` query parameter names a version we do not speak. */
  unsupportedProtocol: 4007,
  /** No `protocol` query parameter. */
  noProtocolVersion: 4008,
  /** Over this process's connection limit, or its client address's (on every process, with Redis): back off and retry. */
  overCapacity: 4100,
  /** The server is going away (shutdown), or the socket holds too many grants: reconnect at once (elsewhere, with a new socket id). */
  reconnectNow: 4200,
  /** The client did not answer a ping in time. */
  pongNotReceived: 4201,
  /** A message the server does not accept (malformed, unknown event, bad channel name). */
  messageRejected: 4300,
  /** A client event (`client-*`) refused: not on a presence channel the socket is subscribed to, or over the rate limit. */
  clientEventRejected: 4301,
} as const;

export type PusherErrorCode = (typeof PusherErrorCode)[keyof typeof PusherErrorCode];
