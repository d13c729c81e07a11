import type { Channel, PresenceChannel } from "pusher-js";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { operatorsOnline } from "../../src/conversations/operators-online.js";
import { isSubscriptionSigned } from "../../src/realtime/channels/channel-signature.js";
import { CONSOLE, consoleChannelAuthorizer, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { Pusher } from "../support/pusher-client.js";
import { createListeningTestApp, pusherOptionsFor, until, type ListeningTestApp } from "../support/realtime-clients.js";
import { bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";

const AUTH = `${CONSOLE}/broadcasting/auth`;
const SOCKET_ID = "1234.5678";
const collision = (conversationId: string) => `presence-conversation-operators.${conversationId}`;

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", (error: unknown) => reject(Object.assign(new Error(`subscription refused: ${JSON.stringify(error)}`), { detail: error })));
  });
const nextEvent = <T>(channel: Channel, event: string) =>
  new Promise<{ data: T; userId: string | undefined }>((resolve) => channel.bind(event, (data: T, metadata?: { user_id?: string }) => resolve({ data, userId: metadata?.user_id })));
const pusherError = (pusher: Pusher) =>
  new Promise<{ type: string; data: { code: number; message: string } }>((resolve) => pusher.connection.bind("error", resolve));

/**
 * Collision: `presence-conversation-operators.{id}` holds the operators who have a conversation
 * open, signed by the console's auth route only for the workspace's operators (as themselves, with
 * their role); its members whisper `client-typing`, relayed by the realtime server with their user id.
 */
describeEachStore("the conversation's operators presence (collision) on %s", (kind) => {
  let t: ListeningTestApp;
  let tenant: Tenant;
  let other: Tenant;
  let ana: ConsoleSession;
  let bob: ConsoleSession;
  let outsider: ConsoleSession;
  const clients: Pusher[] = [];

  beforeAll(async () => {
    t = await createListeningTestApp(kind);
    [tenant, other] = [await seedTenant(t.services), await seedTenant(t.services)];
    ana = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
    bob = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin", name: "Bob" });
    outsider = await createSignedInOperator(t, { workspaceId: other.workspaceId, role: "admin", name: "Oz" });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(() => t.close());

  /** pusher-js as the console configures it, asking the console's auth route with the session's cookie. */
  function consolePusher(session: ConsoleSession): Pusher {
    const pusher = new Pusher(
      t.services.config.realtime.appKey,
      pusherOptionsFor({ app_key: t.services.config.realtime.appKey, host: "127.0.0.1", port: t.port, scheme: "ws" }, {
        channelAuthorization: { endpoint: AUTH, transport: "ajax", customHandler: consoleChannelAuthorizer(`http://127.0.0.1:${t.port}${AUTH}`, session.headers) },
      }),
    );
    clients.push(pusher);
    return pusher;
  }
  const authorize = (channel_name: string, headers: Record<string, string> = ana.headers, extra: Record<string, string> = {}) =>
    t.app.inject({ method: "POST", url: AUTH, headers, payload: { socket_id: SOCKET_ID, channel_name, ...extra } });

  it("happy: two operators of the workspace are members as themselves (name, role); a client-typing whisper reaches the other with its sender's id, not the sender", async () => {
    const { conversationId } = await startSession(t.app, tenant.agentId);
    const anaChannel = consolePusher(ana).subscribe(collision(conversationId)) as PresenceChannel;
    await subscribed(anaChannel);
    expect(anaChannel.members.me).toEqual({ id: ana.operator.id, info: { name: "Ana", role: "agent" } });
    expect(anaChannel.members.count).toBe(1);

    const bobArrives = nextEvent<{ id: string; info: unknown }>(anaChannel, "pusher:member_added");
    const bobPusher = consolePusher(bob);
    const bobChannel = bobPusher.subscribe(collision(conversationId)) as PresenceChannel;
    await subscribed(bobChannel);
    expect((await bobArrives).data).toEqual({ id: bob.operator.id, info: { name: "Bob", role: "admin" } });
    expect(bobChannel.members.get(ana.operator.id)).toEqual({ id: ana.operator.id, info: { name: "Ana", role: "agent" } });

    const anaHeard: unknown[] = [];
    anaChannel.bind("client-typing", (data: unknown) => anaHeard.push(data));
    const heard = nextEvent<{ typing: boolean }>(bobChannel, "client-typing");
    expect(anaChannel.trigger("client-typing", { typing: true })).toBe(true);
    expect(await heard).toEqual({ data: { typing: true }, userId: ana.operator.id });
    // Bob answers; once Ana hears it, her own whisper would have arrived before it: it never came back to her.
    const answer = nextEvent<{ typing: boolean }>(anaChannel, "client-typing");
    expect(bobChannel.trigger("client-typing", { typing: false })).toBe(true);
    expect(await answer).toEqual({ data: { typing: false }, userId: bob.operator.id });
    expect(anaHeard).toEqual([{ typing: false }]);

    const bobLeaves = nextEvent<{ id: string }>(anaChannel, "pusher:member_removed");
    bobPusher.disconnect();
    expect((await bobLeaves).data.id).toBe(bob.operator.id);
  });

  it("happy: the route writes channel_data itself (a client's is ignored) and signs it with the realtime credentials", async () => {
    const { conversationId } = await startSession(t.app, tenant.agentId);
    const response = await authorize(collision(conversationId), bob.headers, { channel_data: JSON.stringify({ user_id: ana.operator.id, user_info: { name: "Ana" } }) });
    expect(response.statusCode).toBe(200);
    const { auth, channel_data } = response.json();
    expect(JSON.parse(channel_data)).toEqual({ user_id: bob.operator.id, user_info: { name: "Bob", role: "admin" } });
    expect(isSubscriptionSigned(t.services.realtime.credentials, auth, SOCKET_ID, collision(conversationId), channel_data)).toBe(true);
  });

  it("security: another workspace's operator is refused the channel (pusher-js subscription_error 403, the route 403 channel_forbidden)", async () => {
    const { conversationId } = await startSession(t.app, tenant.agentId);
    await expect(subscribed(consolePusher(outsider).subscribe(collision(conversationId)))).rejects.toThrow(/AuthError.*status 403/);
    const response = await authorize(collision(conversationId), outsider.headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: { code: "channel_forbidden", message: expect.any(String) } });
  });

  it("security: the visitor's widget auth never signs it, not even for its own conversation (403)", async () => {
    const visitor = await startSession(t.app, tenant.agentId);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/v1/widget/broadcasting/auth",
      headers: bearer(visitor.jwt),
      payload: { socket_id: SOCKET_ID, channel_name: collision(visitor.conversationId) },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe("channel_forbidden");
  });

  it("error: unknown, empty and near-miss names are 403 channel_forbidden; a malformed socket id, a missing name or one over 200 characters 422, no session 401", async () => {
    const { conversationId } = await startSession(t.app, tenant.agentId);
    for (const channel of [
      collision("cnv_unknown"),
      collision(""),
      `presence-conversation-operators.${conversationId}x`,
      `presence-conversation-operator.${conversationId}`,
      `presence-conversation.${conversationId}`,
      `private-conversation-operators.${conversationId}`,
      `presence-conversation-operators.${conversationId}' OR '1'='1`,
    ]) {
      const response = await authorize(channel);
      expect(response.statusCode, channel).toBe(403);
      expect(response.json().error.code).toBe("channel_forbidden");
    }
    const badSocket = await t.app.inject({ method: "POST", url: AUTH, headers: ana.headers, payload: { socket_id: "abc", channel_name: collision(conversationId) } });
    expect(badSocket.statusCode).toBe(422);
    expect(badSocket.json().error.fields.socket_id).toBeDefined();
    const noName = await t.app.inject({ method: "POST", url: AUTH, headers: ana.headers, payload: { socket_id: SOCKET_ID } });
    expect(noName.statusCode).toBe(422);
    expect(noName.json().error.fields.channel_name).toBeDefined();
    const tooLong = await authorize(collision("c".repeat(200)));
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().error.fields.channel_name).toBeDefined();
    expect((await authorize(collision(conversationId), {})).statusCode).toBe(401);
  });

  it("security: client events are refused (4301) on the private conversation channel and on a presence channel the socket is not on, and reach nobody", async () => {
    const { conversationId } = await startSession(t.app, tenant.agentId);
    const [anaPusher, bobPusher] = [consolePusher(ana), consolePusher(bob)];
    const [anaPrivate, bobPrivate] = [anaPusher.subscribe(`private-conversation.${conversationId}`), bobPusher.subscribe(`private-conversation.${conversationId}`)];
    const bobPresence = bobPusher.subscribe(collision(conversationId));
    await Promise.all([subscribed(anaPrivate), subscribed(bobPrivate), subscribed(bobPresence)]);
    const bobHeard: unknown[] = [];
    for (const channel of [bobPrivate, bobPresence]) channel.bind("client-typing", (data: unknown) => bobHeard.push(data));

    let refused = pusherError(anaPusher);
    expect(anaPrivate.trigger("client-typing", { typing: true })).toBe(true);
    expect(await refused).toMatchObject({ type: "PusherError", data: { code: 4301, message: "Client events are accepted on presence channels only." } });
    // Not subscribed to the presence channel: pusher-js would not send it, so the frame goes out as it is.
    refused = pusherError(anaPusher);
    anaPusher.send_event("client-typing", { typing: true }, collision(conversationId));
    expect(await refused).toMatchObject({ data: { code: 4301, message: expect.stringContaining("Subscribe to") } });

    // A fence: Ana joins and whispers; Bob hears that one only.
    const anaPresence = anaPusher.subscribe(collision(conversationId));
    await subscribed(anaPresence);
    const fence = nextEvent(bobPresence, "client-fence");
    anaPresence.trigger("client-fence", {});
    expect((await fence).userId).toBe(ana.operator.id);
    expect(bobHeard).toEqual([]);
  });

  it("security: over ten client events a second, the rest are refused (4301) and dropped", async () => {
    const { conversationId } = await startSession(t.app, tenant.agentId);
    const [anaPusher, bobPusher] = [consolePusher(ana), consolePusher(bob)];
    const [anaChannel, bobChannel] = [anaPusher.subscribe(collision(conversationId)), bobPusher.subscribe(collision(conversationId))];
    await Promise.all([subscribed(anaChannel), subscribed(bobChannel)]);
    let bobHeard = 0;
    bobChannel.bind("client-typing", () => (bobHeard += 1));
    const refused = pusherError(anaPusher);
    // One burst, sent in the same tick: far less than a second for the server to read.
    for (let index = 0; index < 15; index += 1) anaChannel.trigger("client-typing", { typing: true });
    expect(await refused).toMatchObject({ data: { code: 4301, message: expect.stringContaining("Over 10 client events a second") } });
    // What the server relayed reaches Bob before a later event of the service on the same channel.
    const fence = nextEvent(bobChannel, "fence");
    await t.services.realtime.publish({ channels: [collision(conversationId)], event: "fence", data: "{}" });
    await fence;
    expect(bobHeard).toBe(10);
  });

  it("happy: operatorsOnline counts the workspace's operators on presence-operators (one per operator, however many tabs) without reading the member list while nobody is away", async () => {
    const workspace = await seedTenant(t.services);
    const cy = await createSignedInOperator(t, { workspaceId: workspace.workspaceId, role: "agent", name: "Cy" });
    const members = vi.spyOn(t.services.realtime, "presenceMembers");
    expect(await operatorsOnline(t.services, workspace.workspaceId)).toBe(false);
    const [tabOne, tabTwo] = [consolePusher(cy), consolePusher(cy)];
    await subscribed(tabOne.subscribe(`presence-operators.${workspace.workspaceId}`));
    await subscribed(tabTwo.subscribe(`presence-operators.${workspace.workspaceId}`));
    expect(await operatorsOnline(t.services, workspace.workspaceId)).toBe(true);
    expect(await t.services.realtime.presenceUserCount(`presence-operators.${workspace.workspaceId}`)).toBe(1);
    tabOne.disconnect();
    tabTwo.disconnect();
    await until(async () => !(await operatorsOnline(t.services, workspace.workspaceId)));
    expect(members).not.toHaveBeenCalled();
  });
});
