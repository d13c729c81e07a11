import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import type { PresenceChannel } from "pusher-js";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { issueSetPasswordLink } from "../../src/console/issue-set-password-link.js";
import { publicOrigin } from "../../src/console/public-origin.js";
import { startOperatorSession } from "../../src/console/start-operator-session.js";
import { redisEventsChannel } from "../../src/realtime/adapters/redis-adapter.js";
import { CONSOLE, consoleChannelAuthorizer, createSignedInOperator, sessionCookie, type ConsoleSession } from "../support/console-session.js";
import type { Pusher } from "../support/pusher-client.js";
import { createListeningTestApp, rawClient, socketIdOf, until, visitorPusher, type ListeningTestApp, type RawClient, type ReverbDescriptor } from "../support/realtime-clients.js";
import { bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";
import { describeNeeding } from "../support/test-legs.js";
import { ThrowawayRedis } from "../support/throwaway-redis.js";
import { consolePusherFor, untilRevoked, watchChannel, type WatchedChannel } from "../support/watched-channels.js";

const PASSWORD = "a-long-and-uncommon-passphrase-42";

describeEachStore("channel rights are checked for as long as they are used, on one process (%s)", (kind) => {
  let t: ListeningTestApp;
  let tenant: Tenant;
  let admin: ConsoleSession;
  let reverb: ReverbDescriptor;
  let serviceUrl: string;
  const clients: Pusher[] = [];
  const raws: RawClient[] = [];

  beforeAll(async () => {
    t = await createListeningTestApp(kind);
    tenant = await seedTenant(t.services);
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin", name: "Ada" });
    reverb = { app_key: t.services.config.realtime.appKey, host: "127.0.0.1", port: t.port, scheme: "ws" };
    serviceUrl = `http://127.0.0.1:${t.port}`;
  });
  afterEach(() => {
    for (const pusher of clients.splice(0)) pusher.disconnect();
    for (const raw of raws.splice(0)) raw.socket.close();
  });
  afterAll(() => t.close());

  const consolePusher = (headers: Record<string, string>) => {
    const pusher = consolePusherFor(reverb, serviceUrl, headers);
    clients.push(pusher);
    return pusher;
  };
  /** Another console session of the same operator (another device). */
  const anotherSession = async (session: ConsoleSession): Promise<ConsoleSession> => {
    const { secret } = await startOperatorSession(t.services, session.operator.id);
    return { operator: session.operator, secret, headers: { cookie: sessionCookie(secret), origin: publicOrigin(t.services.config) } };
  };
  const consoleRequest = (method: "DELETE" | "PATCH" | "POST", url: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.inject({ method, url: `${CONSOLE}${url}`, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  /** An operator's console subscribed to its workspace's channel, its presence, and a conversation's two channels. */
  const listeningConsole = async (headers: Record<string, string>, conversationId: string) => {
    const pusher = consolePusher(headers);
    return {
      pusher,
      workspace: await watchChannel(pusher, `private-workspace.${tenant.workspaceId}`),
      presence: await watchChannel(pusher, `presence-operators.${tenant.workspaceId}`),
      conversation: await watchChannel(pusher, `private-conversation.${conversationId}`),
      collision: await watchChannel(pusher, `presence-conversation-operators.${conversationId}`),
    };
  };
  /** Publishes `fence` on each channel and waits until `witness` heard it: what a revoked channel did not hear by then, it never will. */
  const publishFence = async (witness: WatchedChannel, channels: string[]) => {
    await t.pusherServer.trigger(channels, "fence", { n: witness.events("fence").length });
    await until(() => witness.events("fence").length > 0);
  };
  const subscriptions = async (channel: string) =>
    ((await (await t.pusherServer.get({ path: `/channels/${channel}`, params: { info: "subscription_count" } })).json()) as { subscription_count: number }).subscription_count;

  it("security: removing an operator ends its live subscriptions (workspace, presence, a conversation and its collision presence) with pusher:subscription_error 403, and it hears nothing after", async () => {
    const visitor = await startSession(t.app, tenant.agentId);
    const bob = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Bob" });
    const bobs = await listeningConsole(bob.headers, visitor.conversationId);
    const witness = await listeningConsole(admin.headers, visitor.conversationId);
    const presence = witness.presence.channel as PresenceChannel;
    expect(Object.keys(presence.members.members).sort()).toEqual([admin.operator.id, bob.operator.id].sort());

    expect((await consoleRequest("DELETE", `/operators/${bob.operator.id}`, admin.headers)).statusCode).toBe(200);
    const revoked = [bobs.workspace, bobs.presence, bobs.conversation, bobs.collision];
    await untilRevoked(revoked);
    for (const watched of revoked) expect(watched.errors()).toEqual([{ type: "AuthError", error: "The operator was removed.", status: 403 }]);

    // Unsubscribed on the server: the channels count the admin's socket only, and Bob left both presences.
    await until(() => Object.keys(presence.members.members).length === 1);
    await until(() => Object.keys((witness.collision.channel as PresenceChannel).members.members).length === 1);
    for (const watched of revoked) await until(async () => (await subscriptions(watched.name)) === 1);
    await publishFence(witness.workspace, [bobs.workspace.name, bobs.conversation.name]);
    await until(() => witness.conversation.events("fence").length === 1);
    expect(bobs.workspace.events("fence")).toEqual([]);
    expect(bobs.conversation.events("fence")).toEqual([]);
    // The socket itself stays open: nothing it still holds was granted to Bob.
    expect(bobs.pusher.connection.state).toBe("connected");
  });

  it("security: signing out everywhere from another device ends the subscriptions of every session of the operator; a colleague's stay", async () => {
    const visitor = await startSession(t.app, tenant.agentId);
    const cleo = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Cleo" });
    const laptop = await listeningConsole(cleo.headers, visitor.conversationId);
    const phone = await anotherSession(cleo);
    const onPhone = await watchChannel(consolePusher(phone.headers), `private-workspace.${tenant.workspaceId}`);
    const colleague = await listeningConsole(admin.headers, visitor.conversationId);

    const ended = await consoleRequest("DELETE", `/operators/${cleo.operator.id}/sessions`, phone.headers);
    expect(ended.json()).toEqual({ data: { operator_id: cleo.operator.id, sessions_ended: 2 } });
    const revoked = [laptop.workspace, laptop.presence, laptop.conversation, laptop.collision, onPhone];
    await untilRevoked(revoked);
    for (const watched of revoked) expect(watched.errors()).toEqual([{ type: "AuthError", error: "The console session has ended: sign in again.", status: 403 }]);

    await publishFence(colleague.workspace, [colleague.workspace.name]);
    expect(colleague.workspace.errors()).toEqual([]);
    expect(laptop.workspace.events("fence")).toEqual([]);
    // A new subscription needs a live session: asked again, the auth route refuses it (401).
    laptop.pusher.unsubscribe(laptop.conversation.name);
    await expect(watchChannel(laptop.pusher, laptop.conversation.name)).rejects.toThrow(/status 401/);
  });

  it("security: one sign-out ends that session's subscriptions only; the operator's other device keeps hearing", async () => {
    const dan = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Dan" });
    const desk = await watchChannel(consolePusher(dan.headers), `private-workspace.${tenant.workspaceId}`);
    const tablet = await anotherSession(dan);
    const onTablet = await watchChannel(consolePusher(tablet.headers), `private-workspace.${tenant.workspaceId}`);

    expect((await consoleRequest("DELETE", "/session", tablet.headers)).statusCode).toBe(204);
    await untilRevoked([onTablet]);
    await publishFence(desk, [desk.name]);
    expect(desk.errors()).toEqual([]);
    expect(onTablet.events("fence")).toEqual([]);
  });

  it("security: a password change (set-password link) ends the subscriptions of every session of the operator", async () => {
    const visitor = await startSession(t.app, tenant.agentId);
    const eve = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Eve" });
    const eves = await listeningConsole(eve.headers, visitor.conversationId);
    const witness = await watchChannel(consolePusher(admin.headers), `private-workspace.${tenant.workspaceId}`);
    const link = await issueSetPasswordLink(t.services.db, t.services.config.publicUrl, eve.operator.id, t.services.now());
    const token = new URL(link.url).hash.replace("#token=", "");

    const set = await t.app.inject({ method: "POST", url: `${CONSOLE}/password`, headers: { origin: eve.headers.origin }, payload: { token, password: PASSWORD } });
    expect(set.statusCode).toBe(200);
    const revoked = [eves.workspace, eves.presence, eves.conversation, eves.collision];
    await untilRevoked(revoked);
    for (const watched of revoked) expect(watched.errors()).toEqual([{ type: "AuthError", error: "The console session has ended: sign in again.", status: 403 }]);
    await publishFence(witness, [witness.name]);
    expect(eves.workspace.events("fence")).toEqual([]);
  });

  it("security: a role change ends only the collision presence signed with the old role; subscribed again, it is signed with the new one", async () => {
    const visitor = await startSession(t.app, tenant.agentId);
    const fay = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Fay" });
    const fays = await listeningConsole(fay.headers, visitor.conversationId);
    expect((fays.collision.channel as PresenceChannel).members.me).toEqual({ id: fay.operator.id, info: { name: "Fay", role: "agent" } });

    expect((await consoleRequest("PATCH", `/operators/${fay.operator.id}`, admin.headers, { role: "admin" })).statusCode).toBe(200);
    await untilRevoked([fays.collision]);
    expect(fays.collision.errors()).toEqual([{ type: "AuthError", error: "The operator's role changed: subscribe again.", status: 403 }]);
    await publishFence(fays.workspace, [fays.workspace.name, fays.conversation.name]);
    await until(() => fays.conversation.events("fence").length === 1);
    expect([fays.workspace, fays.presence, fays.conversation].map((watched) => watched.errors())).toEqual([[], [], []]);

    fays.pusher.unsubscribe(fays.collision.name);
    const resubscribed = await watchChannel(fays.pusher, fays.collision.name);
    expect((resubscribed.channel as PresenceChannel).members.me).toEqual({ id: fay.operator.id, info: { name: "Fay", role: "admin" } });
  });

  it("security: erasing the visitor ends its subscription and the operators' to its conversation, after they hear conversation.deleted", async () => {
    const visitor = await startSession(t.app, tenant.agentId);
    const pusher = visitorPusher(reverb, serviceUrl, visitor.jwt);
    clients.push(pusher);
    const visitorsChannel = await watchChannel(pusher, `private-conversation.${visitor.conversationId}`);
    const operators = await listeningConsole(admin.headers, visitor.conversationId);

    expect((await t.app.inject({ method: "DELETE", url: "/api/v1/widget/me", headers: bearer(visitor.jwt) })).statusCode).toBe(204);
    const revoked = [visitorsChannel, operators.conversation, operators.collision];
    await untilRevoked(revoked);
    for (const watched of revoked) expect(watched.errors()).toEqual([{ type: "AuthError", error: "The conversation was deleted.", status: 403 }]);
    expect(visitorsChannel.heard.map((entry) => entry.event)).toEqual(["pusher:subscription_succeeded", "conversation.deleted", "pusher:subscription_error"]);
    expect(operators.workspace.errors()).toEqual([]);
    expect(await subscriptions(visitorsChannel.name)).toBe(0);
  });

  it("security: a revoked subscription's signature, sent again by a raw client, is refused (403); a fresh signature for a live session is not", async () => {
    const gus = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Gus" });
    const raw = rawClient(`ws://127.0.0.1:${t.port}/app/${reverb.app_key}?protocol=7&client=js&version=8.4.0`, { answerPings: true });
    raws.push(raw);
    const socketId = await socketIdOf(raw);
    const channel = `private-workspace.${tenant.workspaceId}`;
    const sign = async (headers: Record<string, string>) =>
      new Promise<{ auth: string }>((resolve, reject) =>
        consoleChannelAuthorizer(`${serviceUrl}${CONSOLE}/broadcasting/auth`, headers)({ socketId, channelName: channel }, (error, data) =>
          error || !data ? reject(error ?? new Error("no signature")) : resolve(data),
        ),
      );
    const subscribe = async (auth: string) => {
      const before = raw.frames.length;
      raw.send({ event: "pusher:subscribe", data: { channel, auth } });
      await until(() => raw.frames.slice(before).some((frame) => frame.channel === channel && frame.event.includes("subscription")));
      return raw.frames.slice(before).find((frame) => frame.channel === channel && frame.event.includes("subscription"));
    };
    const { auth } = await sign(gus.headers);
    expect(await subscribe(auth)).toMatchObject({ event: "pusher_internal:subscription_succeeded" });

    expect((await consoleRequest("DELETE", "/session", gus.headers)).statusCode).toBe(204);
    await until(() => raw.frames.some((frame) => frame.event === "pusher:subscription_error"));
    raw.send({ event: "pusher:unsubscribe", data: { channel } });
    expect(await subscribe(auth)).toEqual({ event: "pusher:subscription_error", channel, data: { type: "AuthError", error: "This subscription's rights were revoked.", status: 403 } });

    // Signed in again on the same page: the new session's signature (the same HMAC) subscribes.
    const again = await anotherSession(gus);
    expect(await subscribe((await sign(again.headers)).auth)).toMatchObject({ event: "pusher_internal:subscription_succeeded" });
  });
});

describeNeeding("redis")("grants and revocations between two realtime nodes, and while Redis is down", () => {
  it("security: a grant made on A for a socket on B is revoked there from A; with Redis down, A refuses (503) a grant it cannot deliver, and still grants its own sockets", async () => {
    const redis = await ThrowawayRedis.start();
    const environment = { FRONTDESK_REDIS_URL: redis.url, FRONTDESK_REDIS_PREFIX: `frontdesk-test-${randomUUID()}:` };
    const [a, b] = [await createListeningTestApp("pglite", environment), await createListeningTestApp("pglite", environment)];
    const inspector = new Redis(redis.url);
    const raws: RawClient[] = [];
    const connect = async (node: ListeningTestApp) => {
      const raw = rawClient(`ws://127.0.0.1:${node.port}/app/frontdesk?protocol=7`, { answerPings: true });
      raws.push(raw);
      return { raw, socketId: await socketIdOf(raw) };
    };
    try {
      // Both nodes subscribed to the events channel: a grant published before would reach nobody.
      await until(async () => Number(((await inspector.pubsub("NUMSUB", redisEventsChannel(environment.FRONTDESK_REDIS_PREFIX))) as [string, number])[1]) === 2, 10_000);
      const onB = await connect(b);
      await a.services.realtime.grant({ socketId: onB.socketId, channel: "private-ledger", principals: ["test:ledger"] });
      onB.raw.send({ event: "pusher:subscribe", data: { channel: "private-ledger", auth: b.pusherServer.authorizeChannel(onB.socketId, "private-ledger").auth } });
      await onB.raw.next("pusher_internal:subscription_succeeded");
      await a.services.realtime.revoke({ principals: ["test:ledger"], reason: "The ledger closed." });
      expect(await onB.raw.next("pusher:subscription_error")).toEqual({
        event: "pusher:subscription_error",
        channel: "private-ledger",
        data: { type: "AuthError", error: "The ledger closed.", status: 403 },
      });

      inspector.disconnect();
      await redis.kill();
      const later = await connect(b);
      await until(() => !a.services.realtime.sharing().shared, 10_000);
      await expect(a.services.realtime.grant({ socketId: later.socketId, channel: "private-ledger", principals: ["test:ledger"] })).rejects.toMatchObject({
        code: "service_unavailable",
        status: 503,
      });
      const onA = await connect(a);
      await a.services.realtime.grant({ socketId: onA.socketId, channel: "private-ledger", principals: ["test:local"] });
    } finally {
      for (const raw of raws) raw.socket.close();
      inspector.disconnect();
      await Promise.all([a.close(), b.close()]);
      await redis.kill();
    }
  }, 60_000);
});
