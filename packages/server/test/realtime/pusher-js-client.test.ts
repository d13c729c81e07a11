import type { Channel, PresenceChannel } from "pusher-js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Pusher } from "../support/pusher-client.js";
import { connected, createListeningTestApp, reverbFromInit, signedPusherClient, until, type ListeningTestApp, type ReverbDescriptor } from "../support/realtime-clients.js";

/** Resolves with the data of the first `event` on `channel`. */
const nextEvent = (channel: Channel, event: string) => new Promise<unknown>((resolve) => channel.bind(event, (data: unknown) => resolve(data)));
const subscribed = (channel: Channel) =>
  new Promise<unknown>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", resolve);
    channel.bind("pusher:subscription_error", reject);
  });

describe("pusher-js (Node build) against the embedded realtime server", () => {
  let t: ListeningTestApp;
  let reverb: ReverbDescriptor;
  const clients: Pusher[] = [];
  const client = (presence?: { user_id: string; user_info?: Record<string, unknown> }) => {
    const pusher = signedPusherClient(reverb, t.pusherServer, presence);
    clients.push(pusher);
    return pusher;
  };

  beforeAll(async () => {
    t = await createListeningTestApp("pglite");
    reverb = await reverbFromInit(t);
  });
  afterEach(() => {
    for (const pusher of clients.splice(0)) pusher.disconnect();
  });
  afterAll(() => t.close());

  it("happy: init's reverb values point at this very service (host, port, ws), and pusher-js connects with them", async () => {
    expect(reverb).toEqual({ app_key: "frontdesk", host: "127.0.0.1", port: t.port, scheme: "ws" });
    const pusher = client();
    await connected(pusher);
    expect(pusher.connection.socket_id).toMatch(/^\d+\.\d+$/);
  });

  it("happy: an event published through the HTTP API (Pusher's own server library) reaches a public channel's subscriber", async () => {
    const pusher = client();
    const channel = pusher.subscribe("news");
    await subscribed(channel);
    const received = nextEvent(channel, "greeting");
    await t.pusherServer.trigger("news", "greeting", { text: "hello" });
    expect(await received).toEqual({ text: "hello" });
  });

  it("happy: a private channel admits a subscription signed with the app secret, and its events arrive", async () => {
    const pusher = client();
    const channel = pusher.subscribe("private-room.1");
    await subscribed(channel);
    const received = nextEvent(channel, "message.created");
    await t.pusherServer.trigger(["private-room.1", "private-room.2"], "message.created", { id: "m1" });
    expect(await received).toEqual({ id: "m1" });
  });

  it("happy: the publisher's own socket (socket_id) does not receive its event", async () => {
    const [sender, other] = [client(), client()];
    const senderChannel = sender.subscribe("private-echo");
    const otherChannel = other.subscribe("private-echo");
    await Promise.all([subscribed(senderChannel), subscribed(otherChannel)]);
    let senderGot = false;
    senderChannel.bind("note", () => (senderGot = true));
    const received = nextEvent(otherChannel, "note");
    await t.pusherServer.trigger("private-echo", "note", { n: 1 }, { socket_id: sender.connection.socket_id });
    expect(await received).toEqual({ n: 1 });
    const fence = nextEvent(senderChannel, "fence");
    await t.pusherServer.trigger("private-echo", "fence", {});
    await fence;
    expect(senderGot).toBe(false);
  });

  it("security: a forged signature is refused with pusher:subscription_error (401) and no event reaches that socket", async () => {
    const forger = signedPusherClient(reverb, { authorizeChannel: () => ({ auth: `frontdesk:${"0".repeat(64)}` }) } as never);
    clients.push(forger);
    const channel = forger.subscribe("private-secret");
    const error = await new Promise<{ status: number; type: string }>((resolve) => channel.bind("pusher:subscription_error", resolve));
    expect(error).toMatchObject({ type: "AuthError", status: 401 });
    expect(channel.subscribed).toBe(false);
    expect((await t.pusherServer.get({ path: "/channels/private-secret", params: { info: "subscription_count" } }).then((r) => r.json())).subscription_count).toBe(0);
  });

  it("security: a signature made for another socket is refused", async () => {
    const victim = client();
    await connected(victim);
    const thief = signedPusherClient(reverb, {
      authorizeChannel: (_socketId: string, channel: string) => t.pusherServer.authorizeChannel(victim.connection.socket_id, channel),
    } as never);
    clients.push(thief);
    const channel = thief.subscribe("private-stolen");
    await expect(subscribed(channel)).rejects.toMatchObject({ status: 401 });
  });

  it("happy: presence counts a user with two sockets once: one member_added, member_removed only after both leave", async () => {
    const watcher = client({ user_id: "op_watcher", user_info: { name: "Watcher" } });
    const watching = watcher.subscribe("presence-operators.w1") as PresenceChannel;
    await subscribed(watching);
    const added: string[] = [];
    const removed: string[] = [];
    watching.bind("pusher:member_added", (member: { id: string }) => added.push(member.id));
    watching.bind("pusher:member_removed", (member: { id: string }) => removed.push(member.id));

    const tabOne = client({ user_id: "op_ada", user_info: { name: "Ada" } });
    const first = tabOne.subscribe("presence-operators.w1") as PresenceChannel;
    const members = (await subscribed(first)) as { count: number; each: (visit: (member: { id: string; info: unknown }) => void) => void };
    expect(members.count).toBe(2);
    const tabTwo = client({ user_id: "op_ada", user_info: { name: "Ada" } });
    await subscribed(tabTwo.subscribe("presence-operators.w1"));
    await until(() => added.length === 1);
    const users = await t.pusherServer.get({ path: "/channels/presence-operators.w1/users" }).then((r) => r.json());
    expect(users.users.map((user: { id: string }) => user.id).sort()).toEqual(["op_ada", "op_watcher"]);

    tabOne.disconnect();
    await until(async () => (await t.pusherServer.get({ path: "/channels/presence-operators.w1", params: { info: "subscription_count" } }).then((r) => r.json())).subscription_count === 2);
    expect(removed).toEqual([]);
    expect(watching.members.get("op_ada")).toEqual({ id: "op_ada", info: { name: "Ada" } });
    tabTwo.disconnect();
    await until(() => removed.length === 1);
    expect({ added, removed }).toEqual({ added: ["op_ada"], removed: ["op_ada"] });
  });

  it("security: client events are refused with pusher:error 4301, and other subscribers receive nothing", async () => {
    const [sender, other] = [client(), client()];
    const senderChannel = sender.subscribe("private-typing");
    const otherChannel = other.subscribe("private-typing");
    await Promise.all([subscribed(senderChannel), subscribed(otherChannel)]);
    let otherGot = false;
    otherChannel.bind("client-typing", () => (otherGot = true));
    const error = new Promise<{ type: string; data: { code: number } }>((resolve) => sender.connection.bind("error", resolve));
    expect(senderChannel.trigger("client-typing", { typing: true })).toBe(true);
    expect(await error).toMatchObject({ type: "PusherError", data: { code: 4301 } });
    const fence = nextEvent(otherChannel, "fence");
    await t.pusherServer.trigger("private-typing", "fence", {});
    await fence;
    expect(otherGot).toBe(false);
  });

  it("error: an unknown app key is refused (4001) and pusher-js gives up rather than reconnecting", async () => {
    const stranger = signedPusherClient({ ...reverb, app_key: "not-our-key" }, t.pusherServer);
    clients.push(stranger);
    const error = new Promise<{ error: { data: { code: number } } }>((resolve) => stranger.connection.bind("error", resolve));
    expect(await error).toMatchObject({ error: { type: "PusherError", data: { code: 4001 } } });
    await until(() => stranger.connection.state === "disconnected");
    // 4000–4099 means "do not reconnect": pusher-js stays disconnected.
    const states: string[] = [];
    stranger.connection.bind("state_change", ({ current }: { current: string }) => states.push(current));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(states).toEqual([]);
  });
});
