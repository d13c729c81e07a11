import { createServer } from "node:net";
import PusherServer from "pusher";
import type { Options } from "pusher-js";
import { WebSocket } from "ws";
import { Pusher } from "./pusher-client.js";
import { SITE_ORIGIN, seedTenant } from "./seed.js";
import type { StoreKind } from "./test-database.js";
import { createTestApp, TEST_REALTIME_SECRET, type TestApp, type TestAppOptions } from "./test-app.js";

/** init's `reverb` descriptor. */
export interface ReverbDescriptor {
  app_key: string;
  host: string;
  port: number;
  scheme: string;
}

/** A port that was free a moment ago (the service's public URL must name it before it listens). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

export interface ListeningTestApp extends TestApp {
  port: number;
  /** The `pusher` server library (Pusher's own request signing and channel signing), aimed at this service. */
  pusherServer: PusherServer;
}

/** The real application listening on a loopback port that its FRONTDESK_PUBLIC_URL names. */
export async function createListeningTestApp(kind: StoreKind, environment: Record<string, string> = {}, options: TestAppOptions = {}): Promise<ListeningTestApp> {
  const port = await freePort();
  const t = await createTestApp(kind, { FRONTDESK_PORT: String(port), FRONTDESK_PUBLIC_URL: `http://127.0.0.1:${port}`, ...environment }, options);
  await t.app.listen({ host: "127.0.0.1", port });
  const { appId, appKey, appSecret } = t.services.config.realtime;
  const pusherServer = new PusherServer({ appId, key: appKey, secret: appSecret ?? TEST_REALTIME_SECRET, host: "127.0.0.1", port: String(port), useTLS: false });
  return { ...t, port, pusherServer };
}

/** Seeds a tenant and returns the `reverb` values its widget init answers with. */
export async function reverbFromInit(t: TestApp): Promise<ReverbDescriptor> {
  const tenant = await seedTenant(t.services);
  const init = await t.app.inject({ method: "POST", url: "/api/v1/widget/init", headers: { origin: SITE_ORIGIN }, payload: { agent_id: tenant.agentId, page_url: `${SITE_ORIGIN}/` } });
  return (init.json() as { data: { reverb: ReverbDescriptor } }).data.reverb;
}

/** pusher-js options for init's `reverb` values, exactly as the widget would build them. */
export function pusherOptionsFor(reverb: ReverbDescriptor, extra: Partial<Options> = {}): Options {
  return {
    cluster: "",
    wsHost: reverb.host,
    wsPort: reverb.port,
    wssPort: reverb.port,
    forceTLS: reverb.scheme === "wss",
    enabledTransports: ["ws", "wss"],
    disableStats: true,
    ...extra,
  };
}

/**
 * pusher-js as the widget configures it: init's `reverb` values, its conversation channel
 * authorised by the widget's auth route of the service at `serviceUrl`, with the session token.
 */
export function visitorPusher(reverb: ReverbDescriptor, serviceUrl: string, jwt: string): Pusher {
  return new Pusher(
    reverb.app_key,
    pusherOptionsFor(reverb, {
      channelAuthorization: { endpoint: `${serviceUrl}/api/v1/widget/broadcasting/auth`, transport: "ajax", headers: { Authorization: `Bearer ${jwt}` } },
    }),
  );
}

/** A pusher-js client (its Node build) whose private and presence subscriptions `pusherServer` signs. */
export function signedPusherClient(reverb: ReverbDescriptor, pusherServer: PusherServer, presence?: { user_id: string; user_info?: Record<string, unknown> }): Pusher {
  return new Pusher(
    reverb.app_key,
    pusherOptionsFor(reverb, {
      channelAuthorization: {
        customHandler: ({ socketId, channelName }, callback) => {
          callback(null, channelName.startsWith("presence-") && presence
            ? pusherServer.authorizeChannel(socketId, channelName, presence)
            : pusherServer.authorizeChannel(socketId, channelName));
        },
      },
    }),
  );
}

/** Resolves when `pusher` is connected, rejects when it fails or is refused first. */
export function connected(pusher: Pusher): Promise<void> {
  return new Promise((resolve, reject) => {
    if (pusher.connection.state === "connected") return resolve();
    pusher.connection.bind("state_change", ({ current }: { current: string }) => {
      if (current === "connected") resolve();
      if (current === "failed" || current === "unavailable") reject(new Error(`connection ${current}`));
    });
  });
}

/** A raw WebSocket client that records every frame and how it closed. */
export interface RawClient {
  socket: WebSocket;
  frames: { event: string; channel?: string; data?: unknown }[];
  closed: Promise<{ code: number; reason: string }>;
  /** The first frame named `event` (waiting for it). */
  next(event: string, timeoutMs?: number): Promise<{ event: string; channel?: string; data?: unknown }>;
  send(message: unknown): void;
}

export function rawClient(url: string, options: { answerPings?: boolean; headers?: Record<string, string>; localAddress?: string } = {}): RawClient {
  const socket = new WebSocket(url, { ...(options.headers ? { headers: options.headers } : {}), ...(options.localAddress ? { localAddress: options.localAddress } : {}) });
  const frames: RawClient["frames"] = [];
  const waiters: (() => void)[] = [];
  socket.on("message", (data) => {
    const frame = JSON.parse(data.toString()) as RawClient["frames"][number];
    frames.push(frame);
    if (options.answerPings && frame.event === "pusher:ping") socket.send(JSON.stringify({ event: "pusher:pong", data: {} }));
    for (const waiter of waiters.splice(0)) waiter();
  });
  socket.on("error", () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  return {
    socket,
    frames,
    closed,
    send: (message) => socket.send(typeof message === "string" ? message : JSON.stringify(message)),
    next(event, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms; got ${JSON.stringify(frames)}`)), timeoutMs);
        const check = () => {
          const found = frames.find((frame) => frame.event === event);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}

/** The socket id a raw client was given in pusher:connection_established. */
export async function socketIdOf(client: RawClient): Promise<string> {
  const established = await client.next("pusher:connection_established");
  return (JSON.parse(established.data as string) as { socket_id: string }).socket_id;
}

/** Waits until `condition` holds (polling every 20 ms), failing after `timeoutMs`. */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
