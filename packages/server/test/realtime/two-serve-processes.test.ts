import type { ChildProcess } from "node:child_process";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PusherServer from "pusher";
import type { Channel, PresenceChannel } from "pusher-js";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { signSubscription } from "../../src/realtime/channels/channel-signature.js";
import { freePort, json, run, startServer, stopServer } from "../cli/cli-process.js";
import { Pusher } from "../support/pusher-client.js";
import { pusherOptionsFor, until, type ReverbDescriptor, visitorPusher } from "../support/realtime-clients.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { describeNeeding } from "../support/test-legs.js";

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const SITE_ORIGIN = "https://shop.example.com";
const APP_SECRET = "two-processes-realtime-secret-0123456789";
const EXPIRY_SECONDS = 2;

/** One `bin/frontdesk serve` child process. */
interface Serve {
  child: ChildProcess;
  port: number;
  url: string;
  /** Pusher's server library aimed at this process (its HTTP API). */
  api: PusherServer;
}

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", reject);
  });

describeNeeding("postgres", "redis")("two serve processes on one Postgres and one Redis", () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let workspaceId: string;
  let agentId: string;
  let a: Serve;
  let b: Serve;
  const clients: Pusher[] = [];

  async function serve(port?: number): Promise<Serve> {
    const listenOn = port ?? (await freePort());
    const url = `http://127.0.0.1:${listenOn}`;
    const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-realtime-"));
    const { child } = await startServer({ ...env, FRONTDESK_DATA_DIR: dataDir, FRONTDESK_PUBLIC_URL: url }, listenOn);
    const api = new PusherServer({ appId: "frontdesk", key: "frontdesk", secret: APP_SECRET, host: "127.0.0.1", port: String(listenOn), useTLS: false });
    return { child, port: listenOn, url, api };
  }

  const reverbOf = (at: Serve): ReverbDescriptor => ({ app_key: "frontdesk", host: "127.0.0.1", port: at.port, scheme: "ws" });

  /** An operator's pusher-js on `at`, its presence subscriptions signed with the app secret (the test-only signer). */
  function operatorOn(at: Serve, userId: string): Pusher {
    const pusher = new Pusher(
      "frontdesk",
      pusherOptionsFor(reverbOf(at), {
        channelAuthorization: {
          customHandler: ({ socketId, channelName }, callback) => {
            const channelData = JSON.stringify({ user_id: userId, user_info: { name: userId } });
            callback(null, { auth: signSubscription({ appKey: "frontdesk", appSecret: APP_SECRET }, socketId, channelName, channelData), channel_data: channelData });
          },
        },
      }),
    );
    clients.push(pusher);
    return pusher;
  }

  /** Joins the operators' presence channel on `at` as `userId`. */
  async function joinPresence(at: Serve, userId: string): Promise<{ pusher: Pusher; channel: PresenceChannel }> {
    const pusher = operatorOn(at, userId);
    const channel = pusher.subscribe(`presence-operators.${workspaceId}`) as PresenceChannel;
    await subscribed(channel);
    return { pusher, channel };
  }

  /** Every member event a presence channel's client hears, in order. */
  function memberEvents(channel: PresenceChannel): string[] {
    const events: string[] = [];
    channel.bind("pusher:member_added", (member: { id: string }) => events.push(`+${member.id}`));
    channel.bind("pusher:member_removed", (member: { id: string }) => events.push(`-${member.id}`));
    return events;
  }

  const usersOn = async (at: Serve) => {
    const response = await at.api.get({ path: `/channels/presence-operators.${workspaceId}/users` });
    const { users } = (await response.json()) as { users: { id: string }[] };
    return users.map((user) => user.id).sort();
  };
  /** Waits until neither process counts a member: an earlier test's sockets, closed in afterEach, leave the channel asynchronously (a late member_removed would land in the next test's events). */
  const presenceLeft = () => until(async () => (await usersOn(a)).length === 0 && (await usersOn(b)).length === 0, 10_000);
  const occupancyOn = async (at: Serve, channel: string) => {
    const response = await at.api.get({ path: `/channels/${channel}`, params: { info: "subscription_count,user_count" } });
    return response.json() as Promise<{ occupied: boolean; subscription_count?: number; user_count?: number }>;
  };

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    env = {
      FRONTDESK_DATABASE_URL: database.url!,
      FRONTDESK_REDIS_URL: redisUrl,
      FRONTDESK_REDIS_PREFIX: `frontdesk-test-${randomUUID()}:`,
      FRONTDESK_REALTIME_NODE_EXPIRY_SECONDS: String(EXPIRY_SECONDS),
      FRONTDESK_REALTIME_APP_SECRET: APP_SECRET,
      FRONTDESK_JWT_SECRET: "two-processes-jwt-secret-0123456789abcdef",
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
      FRONTDESK_LOG_LEVEL: "warn",
      FRONTDESK_DATA_DIR: await mkdtemp(join(tmpdir(), "frontdesk-realtime-admin-")),
    };
    workspaceId = json(await run(env, "admin", "workspace", "create", "--name", "Acme")).id;
    agentId = json(await run(env, "admin", "agent", "create", "--workspace", workspaceId, "--name", "Bot", "--origin", SITE_ORIGIN)).id;
    [a, b] = await Promise.all([serve(), serve()]);
  }, 120_000);
  afterEach(() => {
    for (const pusher of clients.splice(0)) pusher.disconnect();
  });
  afterAll(async () => {
    for (const pusher of clients.splice(0)) pusher.disconnect();
    await Promise.all([a && stopServer(a.child), b && stopServer(b.child)]);
    await database?.drop();
  });

  it("happy: a visitor's client on A hears the typing it signals through B, and an event B's HTTP API publishes", async () => {
    const init = await fetch(`${b.url}/api/v1/widget/init`, {
      method: "POST",
      headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: agentId, page_url: `${SITE_ORIGIN}/` }),
    });
    const { data } = (await init.json()) as { data: { jwt: string; conversation_id: string } };
    const visitor = visitorPusher(reverbOf(a), a.url, data.jwt);
    clients.push(visitor);
    const channelName = `private-conversation.${data.conversation_id}`;
    const channel = visitor.subscribe(channelName);
    await subscribed(channel);
    const typing: unknown[] = [];
    const notes: unknown[] = [];
    channel.bind("typing", (event: unknown) => typing.push(event));
    channel.bind("note", (event: unknown) => notes.push(event));

    const typed = await fetch(`${b.url}/api/v1/widget/typing`, {
      method: "POST",
      headers: { authorization: `Bearer ${data.jwt}`, "content-type": "application/json" },
      body: JSON.stringify({ typing: true }),
    });
    expect(typed.status).toBe(204);
    await b.api.trigger(channelName, "note", { from: "B" });
    await until(() => typing.length === 1 && notes.length === 1, 10_000);
    expect({ typing, notes }).toEqual({ typing: [{ role: "visitor", typing: true, name: null }], notes: [{ from: "B" }] });
    // B counts A's subscriber: the channel is occupied on both.
    expect(await occupancyOn(b, channelName)).toEqual({ occupied: true, subscription_count: 1 });
  }, 30_000);

  it("happy: presence is the same on A and B, and a user with a tab on each is removed only when its last tab (on B) closes", async () => {
    await presenceLeft();
    const watcher = await joinPresence(b, "op_carol");
    const events = memberEvents(watcher.channel);
    const adaOnA = await joinPresence(a, "op_ada");
    const adaOnB = await joinPresence(b, "op_ada");
    const bob = await joinPresence(a, "op_bob");
    await until(() => events.length === 2);
    expect(await usersOn(a)).toEqual(["op_ada", "op_bob", "op_carol"]);
    expect(await usersOn(b)).toEqual(["op_ada", "op_bob", "op_carol"]);
    const channel = `presence-operators.${workspaceId}`;
    for (const at of [a, b]) {
      expect(await occupancyOn(at, channel)).toEqual({ occupied: true, subscription_count: 4, user_count: 3 });
      const listed = await at.api.get({ path: "/channels", params: { filter_by_prefix: "presence-", info: "user_count" } });
      expect(await listed.json()).toEqual({ channels: { [channel]: { user_count: 3 } } });
    }
    // Ada's tab on A was her first: one member_added, none for her tab on B. Bob, joining on A, was
    // given the members of both processes (Reverb #273 gives only its own process's).
    expect(Object.keys(bob.channel.members.members).sort()).toEqual(["op_ada", "op_bob", "op_carol"]);

    adaOnA.pusher.disconnect();
    await until(async () => (await occupancyOn(a, channel)).subscription_count === 3);
    expect(await usersOn(a)).toEqual(["op_ada", "op_bob", "op_carol"]);
    expect(await usersOn(b)).toEqual(["op_ada", "op_bob", "op_carol"]);

    adaOnB.pusher.disconnect();
    await until(() => events.length === 3);
    for (const at of [a, b]) expect(await usersOn(at)).toEqual(["op_bob", "op_carol"]);
    await until(async () => (await occupancyOn(b, channel)).subscription_count === 2);
    expect(await occupancyOn(a, channel)).toEqual({ occupied: true, subscription_count: 2, user_count: 2 });
    expect(events).toEqual(["+op_ada", "+op_bob", "-op_ada"]);
    expect(Object.keys(watcher.channel.members.members).sort()).toEqual(["op_bob", "op_carol"]);
  }, 30_000);

  it("error: A killed with SIGKILL: B removes, within the expiry, the members whose last socket was on A (once), and a new A agrees", async () => {
    await presenceLeft();
    const watcher = await joinPresence(b, "op_carol");
    const events = memberEvents(watcher.channel);
    const onA = [await joinPresence(a, "op_dave"), await joinPresence(a, "op_erin")];
    await joinPresence(b, "op_erin");
    // Across processes, as the other cross-process waits here: 5 s ran out once in a full clean-clone run.
    await until(() => events.length === 2, 10_000);
    const channel = `presence-operators.${workspaceId}`;
    expect(await occupancyOn(b, channel)).toEqual({ occupied: true, subscription_count: 4, user_count: 3 });

    await stopServer(a.child, "SIGKILL");
    // A's clients would reconnect to the new A on the same port below: they are gone for good.
    for (const { pusher } of onA) pusher.disconnect();
    // Within the expiry, a third of it between sweeps, and a generous margin for a loaded machine.
    await until(() => events.length === 3, (EXPIRY_SECONDS * 4 / 3 + 8) * 1000);
    expect(events).toEqual(["+op_dave", "+op_erin", "-op_dave"]);
    expect(await usersOn(b)).toEqual(["op_carol", "op_erin"]);
    expect(await occupancyOn(b, channel)).toEqual({ occupied: true, subscription_count: 2, user_count: 2 });

    a = await serve(a.port);
    expect(await usersOn(a)).toEqual(["op_carol", "op_erin"]);
    expect(await occupancyOn(a, channel)).toEqual({ occupied: true, subscription_count: 2, user_count: 2 });
    expect(events).toEqual(["+op_dave", "+op_erin", "-op_dave"]);
  }, 60_000);

  it("happy: A stopped with SIGTERM closes its sockets with 4200; a visitor's pusher-js behind a balancer moves to B and keeps hearing its conversation", async () => {
    // A balancer in front of both processes, as a deployment has: new connections go to `target`.
    let target = a.port;
    const piped = new Set<Socket>();
    const server = createServer((client) => {
      const upstream = connect(target, "127.0.0.1");
      piped.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      for (const side of [client, upstream]) {
        side.on("error", end);
        side.on("close", end);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const balancerPort = (server.address() as AddressInfo).port;
    const balancer = `http://127.0.0.1:${balancerPort}`;
    try {
      const init = await fetch(`${balancer}/api/v1/widget/init`, {
        method: "POST",
        headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
        body: JSON.stringify({ agent_id: agentId, page_url: `${SITE_ORIGIN}/` }),
      });
      const { data } = (await init.json()) as { data: { jwt: string; conversation_id: string } };
      const visitor = visitorPusher({ app_key: "frontdesk", host: "127.0.0.1", port: balancerPort, scheme: "ws" }, balancer, data.jwt);
      clients.push(visitor);
      const errors: { code?: number }[] = [];
      visitor.connection.bind("error", (error: { data?: { code?: number } }) => errors.push({ code: error.data?.code }));
      const channel = visitor.subscribe(`private-conversation.${data.conversation_id}`);
      const typing: unknown[] = [];
      channel.bind("typing", (event: unknown) => typing.push(event));
      await subscribed(channel);
      const firstSocket = visitor.connection.socket_id;
      const signal = (at: Serve, on: boolean) =>
        fetch(`${at.url}/api/v1/widget/typing`, { method: "POST", headers: { authorization: `Bearer ${data.jwt}`, "content-type": "application/json" }, body: JSON.stringify({ typing: on }) });

      // A is taken out of the balancer and stopped: its sockets close with 4200, and pusher-js reconnects at once, to B.
      target = b.port;
      const resubscribed = new Promise<void>((resolve) => channel.bind("pusher:subscription_succeeded", () => resolve()));
      await stopServer(a.child, "SIGTERM");
      expect(a.child.exitCode).toBe(0);
      await resubscribed;
      expect(visitor.connection.state).toBe("connected");
      expect(visitor.connection.socket_id).not.toBe(firstSocket);
      expect(errors).toContainEqual({ code: 4200 });
      expect((await signal(b, true)).status).toBe(204);
      await until(() => typing.length === 1, 10_000);
      expect(typing).toEqual([{ role: "visitor", typing: true, name: null }]);
    } finally {
      for (const socket of piped) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
      a = await serve(a.port);
    }
  }, 60_000);
});
