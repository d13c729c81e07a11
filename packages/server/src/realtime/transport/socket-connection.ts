import { randomInt } from "node:crypto";
import { WebSocket } from "ws";
import type { Connection } from "../connection.js";

/** How long a closing client has to answer the close frame (an unresponsive one never does). */
const CLOSE_GRACE_MS = 1000;

/** `1234.5678`: the socket id format Pusher clients and server libraries expect. */
function newSocketId(): string {
  return `${randomInt(1, 2 ** 40)}.${randomInt(1, 2 ** 40)}`;
}

/**
 * One WebSocket client: sends frames, remembers when it last heard from the client, and
 * disconnects a client that does not read (its send buffer past `sendBufferBytes`).
 */
export class SocketConnection implements Connection {
  readonly socketId = newSocketId();
  readonly channels = new Set<string>();
  lastActivityAt = Date.now();
  /** When the server pinged an idle client; null while none is awaited. */
  pingSentAt: number | null = null;
  /** Messages are handled one after the other, in the order they arrived. */
  queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: WebSocket,
    private readonly sendBufferBytes: number,
    private readonly onSlow: (connection: SocketConnection) => void,
  ) {}

  send(frame: string): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(frame);
    if (this.socket.bufferedAmount > this.sendBufferBytes) {
      this.onSlow(this);
      this.socket.terminate();
    }
  }

  heard(): void {
    this.lastActivityAt = Date.now();
    this.pingSentAt = null;
  }

  /** Sends a close frame; a client that has not completed the close within a second is cut off. */
  close(code: number, reason: string): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.close(code, reason);
    setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS).unref();
  }

  terminate(): void {
    this.socket.terminate();
  }
}
