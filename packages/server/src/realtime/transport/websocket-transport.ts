import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { AppError } from "../../http/app-error.js";
import { rawErrorResponse } from "../../http/framework-errors.js";
import type { Connection } from "../connection.js";
import { PusherErrorCode } from "../protocol/pusher-error-codes.js";
import { serverFrames } from "../protocol/server-frames.js";
import { startActivityMonitor, type ActivityTimeouts } from "./activity-monitor.js";
import type { ConnectionQuota } from "./connection-quota.js";
import { SocketConnection } from "./socket-connection.js";

/** The Pusher protocol versions whose framing we speak (pusher-js sends 7). */
const PROTOCOL_VERSIONS = new Set(["5", "6", "7"]);
const APP_PATH = /^\/app\/([^/]+)\/?$/;

export interface WebSocketTransportOptions extends ActivityTimeouts {
  appKey: string;
  clientMessageBytes: number;
  maxConnections: number;
  sendBufferBytes: number;
  /** The address a client connects from: the socket's peer, or the client a trusted proxy names (client-address.ts). */
  clientAddress(request: IncomingMessage): string;
  /** Sockets per client address; one over it is told 4100 (back off) and closed. */
  quota: ConnectionQuota;
}

export interface ConnectionHandlers {
  message(connection: Connection, text: string): Promise<void>;
  closed(connection: Connection): Promise<void>;
  /** A handler failed; the socket is closed. */
  failed(error: unknown): void;
}

/**
 * WebSockets on `/app/{app_key}?protocol=7&client=…&version=…`, upgraded from the service's own
 * HTTP server. Knows sockets, limits and liveness; hands each text message to the handlers.
 */
export class WebSocketTransport {
  private readonly server: WebSocketServer;
  /** The open sockets, by socket id. */
  private readonly connections = new Map<string, SocketConnection>();
  /** One per accepted socket, settled once it has closed and its departure (the handlers' `closed`) has run. */
  private readonly lifetimes = new Set<Promise<void>>();
  private readonly monitor: { stop(): void };
  private closed = false;

  constructor(
    private readonly options: WebSocketTransportOptions,
    private readonly handlers: ConnectionHandlers,
  ) {
    this.server = new WebSocketServer({ noServer: true, maxPayload: options.clientMessageBytes, perMessageDeflate: false, clientTracking: false });
    // With a listener, ws leaves its handshake refusals (bad method, key, version …) to us: our shape, not its HTML.
    this.server.on("wsClientError", (error: Error, socket: Duplex, request: IncomingMessage) => socket.end(rawErrorResponse(handshakeRefusal(error, request))));
    this.monitor = startActivityMonitor(() => this.connections.values(), options);
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Whether the socket is open on this process. */
  has(socketId: string): boolean {
    return this.connections.has(socketId);
  }

  /**
   * Runs `task` on the socket after the messages (and tasks) it was given before, as its own
   * messages are run; nothing when the socket is not open here.
   */
  runOn(socketId: string, task: (connection: Connection) => Promise<void>): void {
    const connection = this.connections.get(socketId);
    if (!connection) return;
    connection.queue = connection.queue.then(() => task(connection)).catch((error: unknown) => {
      this.handlers.failed(error);
      connection.terminate();
    });
  }

  /** Closes one socket with a Pusher close code. */
  closeSocket(socketId: string, code: number, reason: string): void {
    const connection = this.connections.get(socketId);
    if (!connection) return;
    connection.send(serverFrames.error(code, reason));
    connection.close(code, reason);
  }

  /** Takes the upgrade when its path is `/app/{key}`; false leaves it to others. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = URL.canParse(request.url ?? "/", "http://localhost") ? new URL(request.url ?? "/", "http://localhost") : null;
    const match = url ? APP_PATH.exec(url.pathname) : null;
    if (!url || !match) return false;
    if (this.closed) {
      socket.end(rawErrorResponse(new AppError("service_unavailable", "The service is shutting down: reconnect.")));
      return true;
    }
    const appKey = decodedOrNull(match[1] ?? "");
    const address = this.options.clientAddress(request);
    // A key that is not valid percent-encoding names no app: refused with 4001 like any unknown key
    // (decodeURIComponent throws, and a throw here is uncaught: it would stop the whole service).
    this.server.handleUpgrade(request, socket, head, (ws) => this.accept(ws, appKey ?? "", url.searchParams, address));
    return true;
  }

  private accept(ws: WebSocket, appKey: string, query: URLSearchParams, address: string): void {
    // An upgrade that completes once closing has begun is not kept: close waits for every socket it keeps.
    const refusal = this.closed ? { code: PusherErrorCode.reconnectNow, message: "Server shutting down" } : this.refusalOf(appKey, query.get("protocol"));
    if (refusal) {
      ws.send(serverFrames.error(refusal.code, refusal.message));
      ws.close(refusal.code, refusal.message);
      return;
    }
    const connection = new SocketConnection(ws, this.options.sendBufferBytes, (slow) => this.connections.delete(slow.socketId));
    this.connections.set(connection.socketId, connection);
    let open = true;
    // Counted against its address first (on every process, with Redis): its messages wait for the answer.
    let admitted = false;
    connection.queue = this.options.quota.admit(address).then((admit) => {
      admitted = admit;
      if (!open) return;
      if (!admit) return this.closeSocket(connection.socketId, PusherErrorCode.overCapacity, "Over capacity: too many connections from this address");
      connection.send(serverFrames.connectionEstablished(connection.socketId, Math.max(1, Math.round(this.options.activityTimeoutSeconds))));
    }).catch((error: unknown) => {
      this.handlers.failed(error);
      connection.terminate();
    });
    let finished!: () => void;
    const lifetime = new Promise<void>((resolve) => (finished = resolve)).finally(() => this.lifetimes.delete(lifetime));
    this.lifetimes.add(lifetime);
    ws.on("message", (data: RawData, isBinary: boolean) => {
      connection.heard();
      if (isBinary) return;
      const text = rawText(data);
      // A message still queued when its socket closes is dropped: its sender is gone, and its departure comes next.
      connection.queue = connection.queue.then(() => (open && admitted ? this.handlers.message(connection, text) : undefined)).catch((error: unknown) => {
        this.handlers.failed(error);
        connection.terminate();
      });
    });
    ws.on("pong", () => connection.heard());
    // An oversize frame is an error event; ws then closes the socket with 1009 (message too big).
    ws.on("error", () => undefined);
    ws.on("close", () => {
      open = false;
      this.connections.delete(connection.socketId);
      // The departure waits for the message being handled, and ends the socket's lifetime.
      connection.queue = connection.queue
        .then(() => this.handlers.closed(connection))
        .catch((error: unknown) => this.handlers.failed(error))
        .then(() => (admitted ? this.options.quota.release(address) : undefined))
        .catch((error: unknown) => this.handlers.failed(error))
        .finally(finished);
    });
  }

  private refusalOf(appKey: string, protocol: string | null): { code: number; message: string } | null {
    if (appKey !== this.options.appKey) return { code: PusherErrorCode.appNotFound, message: "App key not found" };
    if (protocol === null) return { code: PusherErrorCode.noProtocolVersion, message: "No protocol version supplied" };
    if (!PROTOCOL_VERSIONS.has(protocol)) return { code: PusherErrorCode.unsupportedProtocol, message: `Unsupported protocol version ${protocol.slice(0, 16)}` };
    if (this.connections.size >= this.options.maxConnections) return { code: PusherErrorCode.overCapacity, message: "Over capacity" };
    return null;
  }

  /**
   * Closes every socket with `code` (4200 at shutdown: clients reconnect at once, elsewhere), and
   * resolves once every socket has closed and left its channels (the message it was handling, then
   * its departure): nothing a socket does is left to run after the stores behind the handlers close.
   */
  async close(code: number, reason: string): Promise<void> {
    this.closed = true;
    this.monitor.stop();
    for (const connection of this.connections.values()) connection.close(code, reason);
    // Clients answer the close frame at once; one that has not within a second is cut off.
    const deadline = Date.now() + 1000;
    while (this.connections.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const connection of this.connections.values()) connection.terminate();
    while (this.lifetimes.size > 0) await Promise.all([...this.lifetimes]);
    this.server.close();
  }
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString("utf8");
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.from(data).toString("utf8");
}

/** `decodeURIComponent`, or null for a malformed percent-encoding (`%ZZ`, a lone `%E0`). */
function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** A handshake ws refuses, as our error: 405 for a method other than GET, else 400 with ws's reason. */
function handshakeRefusal(error: Error, request: IncomingMessage): AppError {
  if (request.method !== "GET") return new AppError("method_not_allowed", "A WebSocket connection opens with GET.");
  const versions = error.message.includes("Sec-WebSocket-Version") ? { "Sec-WebSocket-Version": "13, 8" } : undefined;
  return new AppError("bad_request", `Not a WebSocket handshake: ${error.message}.`, undefined, versions);
}
