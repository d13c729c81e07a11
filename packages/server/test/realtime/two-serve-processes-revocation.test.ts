import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PusherServer from "pusher";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { generateConsoleSecret, hashConsoleSecret } from "../../src/console/console-secret.js";
import { issueSetPasswordLink } from "../../src/console/issue-set-password-link.js";
import { insertOperatorSession } from "../../src/tenants/operator-session-repository.js";
import { freePort, json, run, startServer, stopServer } from "../cli/cli-process.js";
import { CONSOLE, sessionCookie } from "../support/console-session.js";
import type { Pusher } from "../support/pusher-client.js";
import { until, visitorPusher, type ReverbDescriptor } from "../support/realtime-clients.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { describeNeeding } from "../support/test-legs.js";
import { consolePusherFor, untilRevoked, watchChannel, type WatchedChannel } from "../support/watched-channels.js";

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const SITE_ORIGIN = "https://shop.example.com";
const PASSWORD = "a-long-and-uncommon-passphrase-42";
const APP_SECRET = "two-processes-revocation-secret-0123456789";

interface Serve {
  child: ChildProcess;
  url: string;
  reverb: ReverbDescriptor;
}

/**
 * Two `serve` processes on one Postgres and one Redis: an operator's socket is on B, its channels
 * were signed by A, and the change that ends its rights is made on A (or B): B ends the
 * subscriptions, told through Redis.
 */
describeNeeding("postgres", "redis")("channel rights end across two serve processes (Postgres, Redis)", () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let workspaceId: string;
  let agentId: string;
  let a: Serve;
  let b: Serve;
  let admin: { id: string; headers: Record<string, string> };
  const clients: Pusher[] = [];

  async function serve(): Promise<Serve> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-revocation-"));
    const { child } = await startServer({ ...env, FRONTDESK_DATA_DIR: dataDir, FRONTDESK_PUBLIC_URL: url }, port);
    return { child, url, reverb: { app_key: "frontdesk", host: "127.0.0.1", port, scheme: "ws" } };
  }

  /** An operator made by the admin CLI, with a console session of its own (as a sign-in starts it). */
  async function operator(name: string, role: "admin" | "agent"): Promise<{ id: string; headers: Record<string, string> }> {
    const created = json(await run(env, "admin", "operator", "create", "--workspace", workspaceId, "--email", `${randomUUID()}@operators.test`, "--name", name, "--role", role));
    return { id: created.id, headers: await session(created.id) };
  }
  /** Another console session of the operator (another device): its cookie and the Origin a browser on the console sends. */
  async function session(operatorId: string): Promise<Record<string, string>> {
    const secret = generateConsoleSecret();
    await insertOperatorSession(database.db, operatorId, hashConsoleSecret(secret), new Date());
    return { cookie: sessionCookie(secret), origin: a.url };
  }
  /** pusher-js connected to `socketOn`, its channels signed by `signedBy`'s auth route. */
  const consoleOn = (socketOn: Serve, signedBy: Serve, headers: Record<string, string>) => {
    const pusher = consolePusherFor(socketOn.reverb, signedBy.url, { ...headers, origin: signedBy.url });
    clients.push(pusher);
    return pusher;
  };
  const consoleRequest = (at: Serve, method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    fetch(`${at.url}${CONSOLE}${path}`, {
      method,
      headers: { ...headers, origin: at.url, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const init = async (at: Serve) => {
    const response = await fetch(`${at.url}/api/v1/widget/init`, {
      method: "POST",
      headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ agent_id: agentId, page_url: `${SITE_ORIGIN}/` }),
    });
    return ((await response.json()) as { data: { jwt: string; conversation_id: string } }).data;
  };
  /** An operator's console on B, signed by A: its workspace channel and a conversation's channel. */
  const listeningConsole = async (headers: Record<string, string>, conversationId: string) => {
    const pusher = consoleOn(b, a, headers);
    return [await watchChannel(pusher, `private-workspace.${workspaceId}`), await watchChannel(pusher, `private-conversation.${conversationId}`)];
  };
  /** A colleague's workspace channel on A, which hears `fence` once it is published; what the revoked did not hear by then, they never will. */
  const fenced = async (witness: WatchedChannel, revoked: WatchedChannel[]) => {
    const before = witness.events("fence").length;
    // Published through B's HTTP API: B's own sockets, and A's through Redis.
    const api = new PusherServer({ appId: "frontdesk", key: "frontdesk", secret: APP_SECRET, host: "127.0.0.1", port: String(b.reverb.port), useTLS: false });
    await api.trigger([...new Set([witness.name, ...revoked.map((watched) => watched.name)])], "fence", {});
    await until(() => witness.events("fence").length > before, 10_000);
    for (const watched of revoked) expect(watched.events("fence"), watched.name).toEqual([]);
  };

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    env = {
      FRONTDESK_DATABASE_URL: database.url!,
      FRONTDESK_REDIS_URL: redisUrl,
      FRONTDESK_REDIS_PREFIX: `frontdesk-test-${randomUUID()}:`,
      FRONTDESK_REALTIME_APP_SECRET: APP_SECRET,
      FRONTDESK_JWT_SECRET: "two-processes-jwt-secret-0123456789abcdef",
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
      FRONTDESK_LOG_LEVEL: "warn",
      FRONTDESK_DATA_DIR: await mkdtemp(join(tmpdir(), "frontdesk-revocation-admin-")),
    };
    workspaceId = json(await run(env, "admin", "workspace", "create", "--name", "Acme")).id;
    agentId = json(await run(env, "admin", "agent", "create", "--workspace", workspaceId, "--name", "Bot", "--origin", SITE_ORIGIN)).id;
    [a, b] = await Promise.all([serve(), serve()]);
    admin = await operator("Ada", "admin");
  }, 120_000);
  afterEach(() => {
    for (const pusher of clients.splice(0)) pusher.disconnect();
  });
  afterAll(async () => {
    for (const pusher of clients.splice(0)) pusher.disconnect();
    await Promise.all([a && stopServer(a.child), b && stopServer(b.child)]);
    await database?.drop();
  });

  it("security: an operator removed on A loses, on B, the subscriptions A signed (pusher:subscription_error 403), and hears nothing after", async () => {
    const { conversation_id } = await init(a);
    const bob = await operator("Bob", "agent");
    const bobs = await listeningConsole(bob.headers, conversation_id);
    const witness = await watchChannel(consoleOn(a, a, admin.headers), `private-workspace.${workspaceId}`);

    expect((await consoleRequest(a, "DELETE", `/operators/${bob.id}`, admin.headers)).status).toBe(200);
    await untilRevoked(bobs);
    for (const watched of bobs) expect(watched.errors()).toEqual([{ type: "AuthError", error: "The operator was removed.", status: 403 }]);
    await fenced(witness, bobs);
  }, 60_000);

  it("security: signing out everywhere on B (from another device) ends, on B and A, the subscriptions of every session", async () => {
    const { conversation_id } = await init(b);
    const cleo = await operator("Cleo", "agent");
    const laptop = await listeningConsole(cleo.headers, conversation_id);
    const phoneHeaders = await session(cleo.id);
    const onPhone = await watchChannel(consoleOn(a, b, phoneHeaders), `private-workspace.${workspaceId}`);
    const witness = await watchChannel(consoleOn(a, b, admin.headers), `private-workspace.${workspaceId}`);

    const ended = await consoleRequest(b, "DELETE", `/operators/${cleo.id}/sessions`, phoneHeaders);
    expect(await ended.json()).toEqual({ data: { operator_id: cleo.id, sessions_ended: 2 } });
    await untilRevoked([...laptop, onPhone]);
    for (const watched of [...laptop, onPhone]) expect(watched.errors()).toEqual([{ type: "AuthError", error: "The console session has ended: sign in again.", status: 403 }]);
    await fenced(witness, [...laptop, onPhone]);
  }, 60_000);

  it("security: a password changed on A (set-password link) ends, on B, the subscriptions of every session of the operator", async () => {
    const { conversation_id } = await init(a);
    const eve = await operator("Eve", "agent");
    const eves = await listeningConsole(eve.headers, conversation_id);
    const witness = await watchChannel(consoleOn(a, a, admin.headers), `private-workspace.${workspaceId}`);
    const link = await issueSetPasswordLink(database.db, a.url, eve.id, new Date());
    const token = new URL(link.url).hash.replace("#token=", "");

    const set = await fetch(`${a.url}${CONSOLE}/password`, { method: "POST", headers: { origin: a.url, "content-type": "application/json" }, body: JSON.stringify({ token, password: PASSWORD }) });
    expect(set.status).toBe(200);
    await untilRevoked(eves);
    for (const watched of eves) expect(watched.errors()).toEqual([{ type: "AuthError", error: "The console session has ended: sign in again.", status: 403 }]);
    await fenced(witness, eves);
  }, 60_000);

  it("security: a visitor erased on A loses, on B, its conversation's channel, after hearing conversation.deleted", async () => {
    const { jwt, conversation_id } = await init(a);
    const visitor = visitorPusher(b.reverb, a.url, jwt);
    clients.push(visitor);
    const channel = await watchChannel(visitor, `private-conversation.${conversation_id}`);

    expect((await fetch(`${a.url}/api/v1/widget/me`, { method: "DELETE", headers: { authorization: `Bearer ${jwt}` } })).status).toBe(204);
    await untilRevoked([channel]);
    expect(channel.heard.map((entry) => entry.event)).toEqual(["pusher:subscription_succeeded", "conversation.deleted", "pusher:subscription_error"]);
    expect(channel.errors()).toEqual([{ type: "AuthError", error: "The conversation was deleted.", status: 403 }]);
  }, 60_000);
});
