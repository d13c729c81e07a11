/** A client's socket, as the protocol handler sees it; the transport implements it. */
export interface Connection {
  readonly socketId: string;
  send(frame: string): void;
  /** The channels this socket is subscribed to. */
  readonly channels: Set<string>;
}
