import type { Channel, PresenceChannel } from "pusher-js";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { isSubscriptionSigned } from "../../src/realtime/channels/channel-signature.js";
import { CONSOLE, consoleChannelAuthorizer, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { Pusher } from "../support/pusher-client.js";
import { createListeningTestApp, pusherOptionsFor, type ListeningTestApp } from "../support/realtime-clients.js";
import { seedTenant, startSession, type Tenant } from "../support/seed.js";
import { describeEachStore } from "../support/test-database.js";

const AUTH = `${CONSOLE}/broadcasting/auth`;
const SOCKET_ID = "1234.5678";

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", (error: unknown) => reject(Object.assign(new Error(`subscription refused: ${JSON.stringify(error)}`), { detail: error })));
  });

describeEachStore("POST /api/v1/console/broadcasting/auth on %s", (kind) => {
  let t: ListeningTestApp;
  let tenant: Tenant;
  let other: Tenant;
  let ana: ConsoleSession;
  const clients: Pusher[] = [];

  beforeAll(async () => {
    t = await createListeningTestApp(kind);
    tenant = await seedTenant(t.services);
    other = await seedTenant(t.services);
    ana = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(() => t.close());

  /** pusher-js as the console would configure it, asking the console's auth route. */
  function consolePusher(session: ConsoleSession): Pusher {
    const pusher = new Pusher(
      t.services.config.realtime.appKey,
      pusherOptionsFor({ app_key: t.services.config.realtime.appKey, host: "127.0.0.1", port: t.port, scheme: "ws" }, {
        channelAuthorization: {
          endpoint: AUTH,
          transport: "ajax",
          customHandler: consoleChannelAuthorizer(`http://127.0.0.1:${t.port}${AUTH}`, session.headers),
        },
      }),
    );
    clients.push(pusher);
    return pusher;
  }

  const authorize = (body: Record<string, string>, headers: Record<string, string> = ana.headers, form = false) =>
    t.app.inject({
      method: "POST",
      url: AUTH,
      headers: { ...headers, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      payload: form ? new URLSearchParams(body).toString() : body,
    });

  it("happy: pusher-js subscribes to the workspace channel, the operators' presence (as itself) and a conversation of its workspace", async () => {
    const visitor = await startSession(t.app, tenant.agentId);
    const pusher = consolePusher(ana);
    await subscribed(pusher.subscribe(`private-workspace.${tenant.workspaceId}`));
    await subscribed(pusher.subscribe(`private-conversation.${visitor.conversationId}`));
    const presence = pusher.subscribe(`presence-operators.${tenant.workspaceId}`) as PresenceChannel;
    await subscribed(presence);
    expect(presence.members.me).toEqual({ id: ana.operator.id, info: { name: "Ana" } });

    const bob = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin", name: "Bob" });
    const joined = new Promise<{ id: string; info: unknown }>((resolve) => presence.bind("pusher:member_added", resolve));
    const bobPresence = consolePusher(bob).subscribe(`presence-operators.${tenant.workspaceId}`) as PresenceChannel;
    await subscribed(bobPresence);
    expect(await joined).toEqual({ id: bob.operator.id, info: { name: "Bob" } });
    expect(bobPresence.members.count).toBe(2);
  });

  it("security: pusher-js is refused another workspace's channels and conversations (403)", async () => {
    const foreign = await startSession(t.app, other.agentId);
    const pusher = consolePusher(ana);
    for (const channel of [`private-workspace.${other.workspaceId}`, `presence-operators.${other.workspaceId}`, `private-conversation.${foreign.conversationId}`]) {
      await expect(subscribed(pusher.subscribe(channel))).rejects.toThrow(/AuthError.*status 403/);
    }
  });

  it("happy: JSON and form-encoded bodies are both signed with the realtime credentials; presence channel_data is the server's", async () => {
    const { credentials } = t.services.realtime;
    for (const form of [false, true]) {
      const workspace = await authorize({ socket_id: SOCKET_ID, channel_name: `private-workspace.${tenant.workspaceId}` }, ana.headers, form);
      expect(workspace.statusCode).toBe(200);
      expect(isSubscriptionSigned(credentials, workspace.json().auth, SOCKET_ID, `private-workspace.${tenant.workspaceId}`)).toBe(true);
      expect(workspace.json().channel_data).toBeUndefined();
    }
    // A channel_data the client sends is ignored: the operator cannot join as someone else.
    const channel = `presence-operators.${tenant.workspaceId}`;
    const presence = await authorize({ socket_id: SOCKET_ID, channel_name: channel, channel_data: JSON.stringify({ user_id: "op_someone_else" }) }, ana.headers, true);
    expect(presence.statusCode).toBe(200);
    const { auth, channel_data } = presence.json();
    expect(JSON.parse(channel_data)).toEqual({ user_id: ana.operator.id, user_info: { name: "Ana" } });
    expect(isSubscriptionSigned(credentials, auth, SOCKET_ID, channel, channel_data)).toBe(true);
  });

  it("error: unknown conversations, other workspaces' channels and other channel kinds are 403 channel_forbidden", async () => {
    const foreign = await startSession(t.app, other.agentId);
    for (const channel of [
      `private-conversation.${foreign.conversationId}`,
      "private-conversation.cnv_unknown",
      "private-conversation.",
      `private-workspace.${other.workspaceId}`,
      `presence-operators.${other.workspaceId}`,
      `presence-workspace.${tenant.workspaceId}`,
      "public-channel",
      `private-workspace.${tenant.workspaceId}x`,
    ]) {
      const response = await authorize({ socket_id: SOCKET_ID, channel_name: channel });
      expect(response.statusCode, channel).toBe(403);
      expect(response.json().error.code).toBe("channel_forbidden");
    }
  });

  it("error: no session is 401, another origin 403 csrf_origin_mismatch, a bad socket id 422", async () => {
    const body = { socket_id: SOCKET_ID, channel_name: `private-workspace.${tenant.workspaceId}` };
    const anonymous = await authorize(body, {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe("unauthenticated");
    const withoutPublicOrigin: Record<string, string>[] = [{ cookie: ana.headers.cookie }, { cookie: ana.headers.cookie, origin: "https://evil.example" }];
    for (const headers of withoutPublicOrigin) {
      const response = await authorize(body, headers);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe("csrf_origin_mismatch");
    }
    const bad = await authorize({ socket_id: "abc", channel_name: body.channel_name });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields.socket_id).toBeDefined();
  });
});
