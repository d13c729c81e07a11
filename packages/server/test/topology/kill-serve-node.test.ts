import { randomUUID } from "node:crypto";
import type { Channel, PresenceChannel } from "pusher-js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { textArray } from "../../src/db/text-array.js";
import { signSubscription } from "../../src/realtime/channels/channel-signature.js";
import { json, run, stopServer } from "../cli/cli-process.js";
import { Pusher } from "../support/pusher-client.js";
import { pusherOptionsFor, until, visitorPusher, type ReverbDescriptor } from "../support/realtime-clients.js";
import { describeNeeding } from "../support/test-legs.js";
import { consolePusherFor } from "../support/watched-channels.js";
import { ConversationView, type SeenMessage } from "./conversation-view.js";
import { APP_SECRET, SITE_ORIGIN, startTopology, type TopologyCluster } from "./topology-cluster.js";

const VISITORS = 12;
const OPERATORS = 3;
/** Conversations each operator takes over and answers (the others stay with the bot). */
const TAKEN_PER_OPERATOR = 2;
const PASSWORD = "topology-operator-password-7f3c1a";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A pusher-js client and which serve process its socket landed on (read from the processes' connection counts). */
interface Placed {
  pusher: Pusher;
  node: number;
  firstSocketId: string;
}

interface Visitor extends Placed {
  conversationId: string;
  jwt: string;
  view: ConversationView;
  /** Messages sent: acknowledged (2xx) or not (the request failed, or was still answering when given up). */
  sent: { key: string; content: string; acknowledged: boolean }[];
}

interface Operator extends Placed {
  id: string;
  cookie: string;
  presence: PresenceChannel;
  /** Conversations it took over, and its view of each conversation it hears of. */
  taken: string[];
  views: Map<string, ConversationView>;
  replies: { conversationId: string; content: string; acknowledged: boolean; id?: string }[];
  memberEvents: string[];
}

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", reject);
  });

const connectedSocketId = (pusher: Pusher) =>
  new Promise<string>((resolve) => {
    if (pusher.connection.state === "connected") return resolve(pusher.connection.socket_id);
    pusher.connection.bind("connected", () => resolve(pusher.connection.socket_id));
  });

/**
 * Issue 35, part 3: the topology a growing site runs, on loopback. Three `serve` processes (API and
 * WebSockets) and two `worker` processes on one Postgres and one Redis, behind HAProxy (health checks
 * on /healthz, WebSocket upgrade, the configuration of docs/scaling.md). pusher-js visitors and
 * console operators are spread over the processes; under load (visitors sending, operators replying)
 * one `serve` is killed with SIGKILL. No acknowledged message is lost or stored twice, every socket
 * it held reconnects through the balancer to another process and catches up by `seq`, and presence
 * is right within a few seconds. Bounded in time; nothing here asserts a speed.
 */
describeNeeding("postgres", "redis", "haproxy")("three serve and two worker processes behind HAProxy", () => {
  let cluster: TopologyCluster;
  const clients: Pusher[] = [];
  let reverb: ReverbDescriptor;
  /** Which serve process answered each acknowledged visitor message (HAProxy's X-Frontdesk-Node). */
  const answeredBy = new Map<string, number>();

  /** `fetch` through the balancer, retried while the balancer or a dying process answers 502/503 or drops the connection. */
  async function throughBalancer(path: string, init: RequestInit, attempts = 20): Promise<Response> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const response = await fetch(`${cluster.url}${path}`, init);
        if ((response.status !== 502 && response.status !== 503) || attempt === attempts) return response;
        await response.body?.cancel();
      } catch (error) {
        if (attempt === attempts) throw error;
      }
      await sleep(100);
    }
  }

  /** Learns which serve process took a new pusher-js client: the one whose connection count grew since `before`. */
  async function place(pusher: Pusher, before: (number | null)[]): Promise<Placed> {
    const firstSocketId = await connectedSocketId(pusher);
    let node = -1;
    await until(async () => {
      const after = await cluster.connectionsPerNode();
      node = after.findIndex((count, index) => (count ?? 0) > (before[index] ?? 0));
      return node >= 0;
    }, 10_000);
    clients.push(pusher);
    return { pusher, node, firstSocketId };
  }

  /** A presence member pinned to one serve process (a socket straight to its port, bypassing the balancer), that never reconnects. */
  async function pinnedMember(serveIndex: number, userId: string): Promise<Pusher> {
    const serve = cluster.serves[serveIndex]!;
    const pusher = new Pusher(
      "frontdesk",
      pusherOptionsFor({ app_key: "frontdesk", host: "127.0.0.1", port: serve.port, scheme: "ws" }, {
        channelAuthorization: {
          customHandler: ({ socketId, channelName }, callback) => {
            const channelData = JSON.stringify({ user_id: userId, user_info: { name: userId } });
            callback(null, { auth: signSubscription({ appKey: "frontdesk", appSecret: APP_SECRET }, socketId, channelName, channelData), channel_data: channelData });
          },
        },
      }),
    );
    clients.push(pusher);
    await subscribed(pusher.subscribe(`presence-operators.${cluster.workspaceId}`));
    return pusher;
  }

  const consoleHeaders = (cookie: string) => ({ cookie, origin: cluster.url, "content-type": "application/json" });

  async function signIn(index: number): Promise<{ id: string; cookie: string }> {
    const created = json(
      await run(cluster.env, "admin", "operator", "create", "--workspace", cluster.workspaceId, "--email", `op${index}@acme.test`, "--name", `Operator ${index}`, "--role", "admin"),
    ) as { id: string; set_password_url: string };
    const token = new URL(created.set_password_url).hash.replace(/^#token=/, "");
    const chosen = await throughBalancer("/api/v1/console/password", { method: "POST", headers: { origin: cluster.url, "content-type": "application/json" }, body: JSON.stringify({ token, password: PASSWORD }) });
    expect(chosen.status).toBe(200);
    const session = await throughBalancer("/api/v1/console/session", { method: "POST", headers: { origin: cluster.url, "content-type": "application/json" }, body: JSON.stringify({ email: `op${index}@acme.test`, password: PASSWORD }) });
    expect(session.status).toBe(200);
    return { id: created.id, cookie: session.headers.get("set-cookie")!.split(";")[0]! };
  }

  async function startVisitor(): Promise<Visitor> {
    const init = await throughBalancer("/api/v1/widget/init", {
      method: "POST",
      headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: cluster.agentId, page_url: `${SITE_ORIGIN}/` }),
    });
    expect(init.status).toBe(200);
    const { data } = (await init.json()) as { data: { jwt: string; conversation_id: string; reverb: ReverbDescriptor } };
    reverb = data.reverb;
    const view = new ConversationView(async (afterSeq) => {
      const response = await throughBalancer(`/api/v1/widget/conversation/messages?after_seq=${afterSeq}`, { headers: { authorization: `Bearer ${data.jwt}`, origin: SITE_ORIGIN } });
      const body = (await response.json()) as { data: { messages: SeenMessage[]; has_more: boolean } };
      return { messages: body.data.messages, hasMore: body.data.has_more };
    });
    const before = await cluster.connectionsPerNode();
    const pusher = visitorPusher(data.reverb, cluster.url, data.jwt);
    const channel = pusher.subscribe(`private-conversation.${data.conversation_id}`);
    channel.bind("message.created", (event: SeenMessage) => view.heard(event));
    channel.bind("conversation.updated", (event: { seq: number }) => view.heard({ seq: event.seq }));
    // Every subscription after the first is a reconnect: catch up from the last seq held.
    let subscriptions = 0;
    channel.bind("pusher:subscription_succeeded", () => {
      subscriptions += 1;
      if (subscriptions > 1) void view.catchUp();
    });
    await subscribed(channel);
    const placed = await place(pusher, before);
    return { ...placed, conversationId: data.conversation_id, jwt: data.jwt, view, sent: [] };
  }

  async function startOperator(index: number): Promise<Operator> {
    const { id, cookie } = await signIn(index);
    const before = await cluster.connectionsPerNode();
    const pusher = consolePusherFor(reverb, cluster.url, { cookie, origin: cluster.url });
    const views = new Map<string, ConversationView>();
    const viewOf = (conversationId: string) => {
      let view = views.get(conversationId);
      if (!view) {
        view = new ConversationView(async (afterSeq) => {
          const response = await throughBalancer(`/api/v1/console/conversations/${conversationId}/messages?after_seq=${afterSeq}&limit=500`, { headers: consoleHeaders(cookie) });
          const body = (await response.json()) as { data: { messages: SeenMessage[]; has_more: boolean; conversation: { updated_seq: number } } };
          return { messages: body.data.messages, hasMore: body.data.has_more, updatedSeq: body.data.conversation.updated_seq };
        });
        views.set(conversationId, view);
      }
      return view;
    };
    const workspace = pusher.subscribe(`private-workspace.${cluster.workspaceId}`);
    workspace.bind("message.created", (event: SeenMessage & { conversation_id: string }) => viewOf(event.conversation_id).heard(event));
    workspace.bind("conversation.updated", (event: { conversation_id: string; seq: number }) => viewOf(event.conversation_id).heard({ seq: event.seq }));
    let subscriptions = 0;
    workspace.bind("pusher:subscription_succeeded", () => {
      subscriptions += 1;
      if (subscriptions > 1) for (const view of views.values()) void view.catchUp();
    });
    const presence = pusher.subscribe(`presence-operators.${cluster.workspaceId}`) as PresenceChannel;
    const memberEvents: string[] = [];
    presence.bind("pusher:member_added", (member: { id: string }) => memberEvents.push(`+${member.id}`));
    presence.bind("pusher:member_removed", (member: { id: string }) => memberEvents.push(`-${member.id}`));
    await Promise.all([subscribed(workspace), subscribed(presence)]);
    const placed = await place(pusher, before);
    return { ...placed, id, cookie, presence, taken: [], views, replies: [], memberEvents };
  }

  /** One visitor's message, with an Idempotency-Key, sent again while the balancer or a dying process fails it. */
  async function send(visitor: Visitor, content: string): Promise<void> {
    const key = randomUUID();
    const record = { key, content, acknowledged: false };
    visitor.sent.push(record);
    const headers = { authorization: `Bearer ${visitor.jwt}`, origin: SITE_ORIGIN, "content-type": "application/json", "idempotency-key": key };
    for (let attempt = 0; attempt < 30; attempt += 1) {
      try {
        const response = await fetch(`${cluster.url}/api/v1/widget/messages`, { method: "POST", headers, body: JSON.stringify({ message: content }) });
        await response.body?.cancel();
        if (response.ok) {
          record.acknowledged = true;
          const node = response.headers.get("x-frontdesk-node") ?? "none";
          answeredBy.set(node, (answeredBy.get(node) ?? 0) + 1);
          return;
        }
        // 409: the process that stored it died while answering; its lease outlasts this test, so
        // the message stays unacknowledged (stored at most once, which the test checks).
        if (response.status === 409) return;
        expect([502, 503]).toContain(response.status);
      } catch {
        // the connection dropped with the process: send it again
      }
      await sleep(100);
    }
  }

  /** An operator's reply in a conversation it took over; a failed one is not sent again (the console would show it failed). */
  async function reply(operator: Operator, conversationId: string, content: string): Promise<void> {
    const record: Operator["replies"][number] = { conversationId, content, acknowledged: false };
    operator.replies.push(record);
    try {
      const response = await fetch(`${cluster.url}/api/v1/console/conversations/${conversationId}/messages`, { method: "POST", headers: consoleHeaders(operator.cookie), body: JSON.stringify({ content }) });
      if (response.status === 201) {
        record.acknowledged = true;
        record.id = ((await response.json()) as { data: { id: string } }).data.id;
      } else {
        await response.body?.cancel();
        expect([502, 503]).toContain(response.status);
      }
    } catch {
      // dropped with the process
    }
  }

  beforeAll(async () => {
    cluster = await startTopology({ serveCount: 3, workerCount: 2 });
  }, 300_000);
  afterAll(async () => {
    for (const pusher of clients.splice(0)) pusher.disconnect();
    await cluster?.stop();
  }, 120_000);

  it("happy: kill -9 of one serve under load loses and duplicates no acknowledged message; its sockets reconnect elsewhere and catch up by seq; presence is right", async () => {
    // Spread: visitors and operators connect through the balancer, and every process holds some.
    const visitors: Visitor[] = [];
    for (let index = 0; index < VISITORS; index += 1) visitors.push(await startVisitor());
    const operators: Operator[] = [];
    for (let index = 0; index < OPERATORS; index += 1) operators.push(await startOperator(index));
    const placedOn = [...visitors, ...operators].map((client) => client.node);
    for (let node = 0; node < cluster.serves.length; node += 1) expect(placedOn.filter((at) => at === node).length).toBeGreaterThan(0);
    // One presence member pinned to each process: the killed process's must leave.
    const pinned = await Promise.all(cluster.serves.map((_, index) => pinnedMember(index, `pinned-${index}`)));
    expect(pinned).toHaveLength(3);
    const everyone = () => [...operators.map((operator) => operator.id), "pinned-0", "pinned-1", "pinned-2"].sort();
    await until(() => operators.every((operator) => Object.keys(operator.presence.members.members).length === 6), 10_000);

    // Operators take over some conversations (the rest stay with the bot, which answers extractively).
    for (const [index, operator] of operators.entries()) {
      for (const visitor of visitors.slice(index * TAKEN_PER_OPERATOR, (index + 1) * TAKEN_PER_OPERATOR)) {
        const taken = await throughBalancer(`/api/v1/console/conversations/${visitor.conversationId}/assign`, { method: "POST", headers: consoleHeaders(operator.cookie), body: "{}" });
        expect(taken.status).toBe(200);
        operator.taken.push(visitor.conversationId);
      }
    }

    // Load: every visitor sends one message after another, every operator replies in turn.
    let loading = true;
    const visitorLoops = visitors.map(async (visitor, index) => {
      for (let count = 0; loading; count += 1) {
        await send(visitor, `visitor ${index} message ${count}: where is my order?`);
        await sleep(50);
      }
    });
    const operatorLoops = operators.map(async (operator, index) => {
      for (let count = 0; loading; count += 1) {
        await reply(operator, operator.taken[count % operator.taken.length]!, `operator ${index} reply ${count}`);
        await sleep(100);
      }
    });

    // The process holding the first operator's socket (so a member's socket is cut) dies mid-load.
    const killed = operators[0]!.node;
    const survivors = cluster.serves.map((_, index) => index).filter((index) => index !== killed);
    // Under way, and spread: every process has answered a few messages (a bound, not a speed).
    await until(() => cluster.serves.every((serve) => (answeredBy.get(serve.name) ?? 0) >= 3), 60_000);
    expect([...answeredBy.keys()].sort()).toEqual(cluster.serves.map((serve) => serve.name));
    const acknowledgedBeforeKill = visitors.reduce((sum, visitor) => sum + visitor.sent.filter((message) => message.acknowledged).length, 0);
    await stopServer(cluster.serves[killed]!.child, "SIGKILL");
    await until(async () => (await cluster.balancerStatus())[cluster.serves[killed]!.name]?.startsWith("DOWN") ?? false, 10_000);
    await sleep(3_000);
    loading = false;
    await Promise.all([...visitorLoops, ...operatorLoops]);

    // Every socket is connected again; those of the killed process with a new socket id, on a survivor.
    const placed: Placed[] = [...visitors, ...operators];
    await until(() => placed.every((client) => client.pusher.connection.state === "connected"), 20_000);
    // The balancer took out the killed process only (a survivor taken out would close its sockets too).
    expect(await cluster.balancerDowns()).toEqual(Object.fromEntries(cluster.serves.map((serve, index) => [serve.name, index === killed ? 1 : 0])));
    for (const client of placed) {
      if (client.node === killed) expect(client.pusher.connection.socket_id).not.toBe(client.firstSocketId);
      else expect(client.pusher.connection.socket_id).toBe(client.firstSocketId);
    }
    const counts = await cluster.connectionsPerNode();
    expect(counts[killed]).toBeNull();
    // Every balanced client, and the two pinned members of the survivors.
    expect(survivors.reduce((sum, index) => sum + (counts[index] ?? 0), 0)).toBe(placed.length + 2);

    // Presence, within a few seconds: the killed process's pinned member has left, once; every
    // operator is there (those cut off came back through the balancer).
    const expected = everyone().filter((id) => id !== `pinned-${killed}`);
    await until(() => operators.every((operator) => JSON.stringify(Object.keys(operator.presence.members.members).sort()) === JSON.stringify(expected)), 10_000);
    // Heard once by every console that stayed connected; a console that reconnected heard it if it
    // subscribed again before the sweep, else its new member list no longer had it.
    for (const operator of operators) {
      const left = operator.memberEvents.filter((event) => event === `-pinned-${killed}`).length;
      if (operator.node === killed) expect(left).toBeLessThanOrEqual(1);
      else expect(left).toBe(1);
    }

    // Each visitor sends one last message: its seq shows every client any gap left by the kill.
    for (const [index, visitor] of visitors.entries()) await send(visitor, `visitor ${index} last message`);
    for (const visitor of visitors) expect(visitor.sent.at(-1)!.acknowledged).toBe(true);

    // The store: every acknowledged message exactly once; an unacknowledged one at most once.
    const rows = await cluster.database.db.query<{ id: string; conversation_id: string; role: string; content: string }>(
      "SELECT id, conversation_id, role, content FROM messages WHERE conversation_id = ANY($1::text[])",
      [textArray(visitors.map((visitor) => visitor.conversationId))],
    );
    const stored = (conversationId: string, content: string) => rows.rows.filter((row) => row.conversation_id === conversationId && row.content === content).length;
    let acknowledged = 0;
    let unacknowledged = 0;
    for (const visitor of visitors) {
      for (const message of visitor.sent) {
        if (message.acknowledged) acknowledged += 1;
        else unacknowledged += 1;
        if (message.acknowledged) expect(stored(visitor.conversationId, message.content), message.content).toBe(1);
        else expect(stored(visitor.conversationId, message.content), message.content).toBeLessThanOrEqual(1);
      }
    }
    let replies = 0;
    for (const operator of operators) {
      for (const sent of operator.replies) {
        if (sent.acknowledged) {
          replies += 1;
          expect(rows.rows.filter((row) => row.id === sent.id)).toEqual([{ id: sent.id, conversation_id: sent.conversationId, role: "operator", content: sent.content }]);
        } else expect(stored(sent.conversationId, sent.content)).toBeLessThanOrEqual(1);
      }
    }
    expect(acknowledged).toBeGreaterThan(acknowledgedBeforeKill);
    expect(replies).toBeGreaterThan(0);

    // Delivery: every client ends up with exactly the stored messages of its conversations, by id.
    const storedIds = (conversationId: string) => rows.rows.filter((row) => row.conversation_id === conversationId).map((row) => row.id).sort();
    await until(async () => {
      for (const visitor of visitors) await visitor.view.settled();
      for (const operator of operators) for (const view of operator.views.values()) await view.settled();
      return (
        visitors.every((visitor) => JSON.stringify([...visitor.view.messages.keys()].sort()) === JSON.stringify(storedIds(visitor.conversationId))) &&
        operators.every((operator) => visitors.every((visitor) => JSON.stringify([...(operator.views.get(visitor.conversationId)?.messages.keys() ?? [])].sort()) === JSON.stringify(storedIds(visitor.conversationId))))
      );
    }, 20_000);
    // A live event reaches a client at most once.
    for (const view of [...visitors.map((visitor) => visitor.view), ...operators.flatMap((operator) => [...operator.views.values()])]) {
      expect([...view.deliveries.values()].every((count) => count === 1)).toBe(true);
    }
    // The sockets of the killed process caught up by seq after reconnecting.
    for (const visitor of visitors.filter((client) => client.node === killed)) expect(visitor.view.catchUps).toBeGreaterThan(0);

    console.log(
      `topology: ${acknowledged} visitor messages acknowledged (${acknowledgedBeforeKill} before the kill), ${unacknowledged} unacknowledged, ${replies} operator replies; ` +
        `answered by ${JSON.stringify(Object.fromEntries(answeredBy))}; started in ${JSON.stringify(cluster.startup)} ms; clients per process before the kill ${JSON.stringify(cluster.serves.map((_, index) => placedOn.filter((at) => at === index).length))}, killed serve${killed + 1}`,
    );
  }, 110_000);
});
