import Echo from "laravel-echo";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Pusher } from "../support/pusher-client.js";
import { createListeningTestApp, reverbFromInit, until, type ListeningTestApp, type ReverbDescriptor } from "../support/realtime-clients.js";

type EchoClient = Echo<"reverb"> | Echo<"pusher">;

describe.each(["reverb", "pusher"] as const)("laravel-echo with its %s broadcaster against the embedded realtime server", (broadcaster) => {
  let t: ListeningTestApp;
  let reverb: ReverbDescriptor;
  const clients: EchoClient[] = [];

  /** Echo configured from init's `reverb` values, as a Laravel front end configures it. */
  const echo = (presence?: { user_id: string; user_info: Record<string, unknown> }, forge = false): EchoClient => {
    const client = new Echo({
      broadcaster,
      key: reverb.app_key,
      wsHost: reverb.host,
      wsPort: reverb.port,
      wssPort: reverb.port,
      forceTLS: reverb.scheme === "wss",
      enabledTransports: ["ws", "wss"],
      cluster: "",
      disableStats: true,
      Pusher,
      channelAuthorization: {
        customHandler: ({ socketId, channelName }: { socketId: string; channelName: string }, callback: (error: Error | null, data: { auth: string; channel_data?: string }) => void) => {
          if (forge) return callback(null, { auth: `${reverb.app_key}:${"f".repeat(64)}` });
          callback(null, presence ? t.pusherServer.authorizeChannel(socketId, channelName, presence) : t.pusherServer.authorizeChannel(socketId, channelName));
        },
      },
    } as never) as EchoClient;
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await createListeningTestApp("pglite");
    reverb = await reverbFromInit(t);
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(() => t.close());

  it("happy: public and private channels receive events published through the HTTP API", async () => {
    const client = echo();
    const received: unknown[] = [];
    const subscribed = new Promise<void>((resolve) => client.private("orders.7").subscribed(() => resolve()));
    client.private("orders.7").listen(".order.shipped", (data: unknown) => received.push(data));
    const publicSubscribed = new Promise<void>((resolve) => client.channel("status").subscribed(() => resolve()));
    client.channel("status").listen(".status.changed", (data: unknown) => received.push(data));
    await Promise.all([subscribed, publicSubscribed]);
    await t.pusherServer.trigger("private-orders.7", "order.shipped", { id: 7 });
    await t.pusherServer.trigger("status", "status.changed", { up: true });
    await until(() => received.length === 2);
    expect(received).toEqual([{ id: 7 }, { up: true }]);
  });

  it("happy: presence — here() lists members; joining() once for a user's second tab; leaving() after its last", async () => {
    const watcher = echo({ user_id: "op_w", user_info: { name: "Watcher" } });
    const joined: unknown[] = [];
    const left: unknown[] = [];
    const here = new Promise<unknown[]>((resolve) => watcher.join("operators.1").here((members: unknown[]) => resolve(members)));
    watcher.join("operators.1").joining((member: unknown) => joined.push(member)).leaving((member: unknown) => left.push(member));
    expect(await here).toEqual([{ name: "Watcher" }]);

    const tabs = [echo({ user_id: "op_ada", user_info: { name: "Ada" } }), echo({ user_id: "op_ada", user_info: { name: "Ada" } })];
    for (const tab of tabs) await new Promise<void>((resolve) => tab.join("operators.1").here(() => resolve()));
    await until(() => joined.length === 1);
    tabs[0]?.disconnect();
    await until(async () => (await (await t.pusherServer.get({ path: "/channels/presence-operators.1", params: { info: "subscription_count" } })).json()).subscription_count === 2);
    expect(left).toEqual([]);
    tabs[1]?.disconnect();
    await until(() => left.length === 1);
    expect({ joined, left }).toEqual({ joined: [{ name: "Ada" }], left: [{ name: "Ada" }] });
  });

  it("security: a forged authorisation reaches Echo's error() callback with status 401", async () => {
    const client = echo(undefined, true);
    const error = await new Promise<unknown>((resolve) => client.private("orders.8").error((failure: unknown) => resolve(failure)));
    expect(error).toMatchObject({ type: "AuthError", status: 401 });
  });
});
