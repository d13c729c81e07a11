import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PusherServer from "pusher";
import type { Channel } from "pusher-js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signSubscription } from "../../src/realtime/channels/channel-signature.js";
import { freePort, json, run, startServer, stopServer } from "../cli/cli-process.js";
import { Pusher } from "../support/pusher-client.js";
import { pusherOptionsFor, until, type ReverbDescriptor } from "../support/realtime-clients.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { describeNeeding } from "../support/test-legs.js";

const redisUrl = process.env.FRONTDESK_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const SITE_ORIGIN = "https://shop.example.com";
const APP_SECRET = "routing-two-processes-secret-0123456789";

interface Serve {
  child: ChildProcess;
  port: number;
  url: string;
  api: PusherServer;
}

const subscribed = (channel: Channel) =>
  new Promise<void>((resolve, reject) => {
    channel.bind("pusher:subscription_succeeded", () => resolve());
    channel.bind("pusher:subscription_error", reject);
  });

/**
 * Round-robin routing across two `serve` processes on one Postgres and one Redis (issue 33, part
 * 6): operators are online on either process (presence shared through Redis), the agent's routing
 * is set with the admin CLI, and simultaneous requests for a person arrive through both processes.
 * The turn is the agent's row lock, so none is given twice and they are spread evenly.
 */
describeNeeding("postgres", "redis")("round-robin routing across two serve processes", () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let workspaceId: string;
  let agentId: string;
  let operatorIds: string[];
  let a: Serve;
  let b: Serve;
  const clients: Pusher[] = [];

  async function serve(): Promise<Serve> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-routing-"));
    const { child } = await startServer({ ...env, FRONTDESK_DATA_DIR: dataDir, FRONTDESK_PUBLIC_URL: url }, port);
    const api = new PusherServer({ appId: "frontdesk", key: "frontdesk", secret: APP_SECRET, host: "127.0.0.1", port: String(port), useTLS: false });
    return { child, port, url, api };
  }

  const reverbOf = (at: Serve): ReverbDescriptor => ({ app_key: "frontdesk", host: "127.0.0.1", port: at.port, scheme: "ws" });

  /** The operator's console on `at`: joined to the operators' presence channel. */
  async function online(at: Serve, operatorId: string): Promise<void> {
    const pusher = new Pusher(
      "frontdesk",
      pusherOptionsFor(reverbOf(at), {
        channelAuthorization: {
          customHandler: ({ socketId, channelName }, callback) => {
            const channelData = JSON.stringify({ user_id: operatorId, user_info: { name: operatorId } });
            callback(null, { auth: signSubscription({ appKey: "frontdesk", appSecret: APP_SECRET }, socketId, channelName, channelData), channel_data: channelData });
          },
        },
      }),
    );
    clients.push(pusher);
    await subscribed(pusher.subscribe(`presence-operators.${workspaceId}`));
  }

  const usersOn = async (at: Serve) => {
    const response = await at.api.get({ path: `/channels/presence-operators.${workspaceId}/users` });
    return ((await response.json()) as { users: { id: string }[] }).users.map((user) => user.id).sort();
  };

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    env = {
      FRONTDESK_DATABASE_URL: database.url!,
      FRONTDESK_REDIS_URL: redisUrl,
      FRONTDESK_REDIS_PREFIX: `frontdesk-test-${randomUUID()}:`,
      FRONTDESK_REALTIME_APP_SECRET: APP_SECRET,
      FRONTDESK_JWT_SECRET: "routing-two-processes-jwt-secret-0123456789",
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
      FRONTDESK_LOG_LEVEL: "warn",
      FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: "1000",
      FRONTDESK_RATE_LIMIT_INIT_PER_HOUR_PER_IP: "1000",
      FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000",
      FRONTDESK_DATA_DIR: await mkdtemp(join(tmpdir(), "frontdesk-routing-admin-")),
    };
    workspaceId = json(await run(env, "admin", "workspace", "create", "--name", "Acme")).id;
    agentId = json(await run(env, "admin", "agent", "create", "--workspace", workspaceId, "--name", "Bot", "--origin", SITE_ORIGIN)).id;
    operatorIds = [];
    for (const name of ["ana", "bo", "cy"]) {
      operatorIds.push(json(await run(env, "admin", "operator", "create", "--workspace", workspaceId, "--email", `${name}@acme.test`, "--name", name)).id);
    }
    [a, b] = await Promise.all([serve(), serve()]);
  }, 120_000);
  afterAll(async () => {
    for (const pusher of clients.splice(0)) pusher.disconnect();
    await Promise.all([a && stopServer(a.child), b && stopServer(b.child)]);
    await database?.drop();
  });

  it("happy: `admin agent update --routing round_robin`, then 20 simultaneous requests through both processes go 7, 7, 6 to three operators online on either, none twice", async () => {
    const updated = json(await run(env, "admin", "agent", "update", agentId, "--routing", "round_robin"));
    expect(updated.routing).toEqual({ mode: "round_robin", team: [] });
    const [ana, bo, cy] = operatorIds as [string, string, string];
    await online(a, ana);
    await online(a, bo);
    await online(b, cy);
    // Each process sees all three (presence through Redis).
    await until(async () => (await usersOn(a)).length === 3 && (await usersOn(b)).length === 3, 10_000);

    const sessions = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const at = index % 2 === 0 ? a : b;
        const init = await fetch(`${at.url}/api/v1/widget/init`, {
          method: "POST",
          headers: { origin: SITE_ORIGIN, "content-type": "application/json" },
          body: JSON.stringify({ agent_id: agentId, page_url: `${SITE_ORIGIN}/` }),
        });
        expect(init.status).toBe(200);
        return { at, ...((await init.json()) as { data: { jwt: string; conversation_id: string } }).data };
      }),
    );
    const answers = await Promise.all(
      sessions.map(async (session, index) => {
        // Each request through the other process than its init, half of them.
        const at = index % 4 < 2 ? session.at : session.at === a ? b : a;
        const response = await fetch(`${at.url}/api/v1/widget/request-human`, {
          method: "POST",
          headers: { authorization: `Bearer ${session.jwt}`, "content-type": "application/json", origin: SITE_ORIGIN },
          body: "{}",
        });
        return (await response.json()) as { data: { status: string } };
      }),
    );
    expect(answers.map((answer) => answer.data.status)).toEqual(Array.from({ length: 20 }, () => "human"));

    const { rows } = await database.db.query<{ assignee_operator_id: string; joined: number; notified: number }>(
      `SELECT c.assignee_operator_id,
         (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id AND m.system_code = 'operator_joined') AS joined,
         (SELECT count(*)::int FROM inbox_notifications n WHERE n.conversation_id = c.id) AS notified
       FROM conversations c WHERE c.agent_id = $1 AND c.human_requested_at IS NOT NULL`,
      [agentId],
    );
    expect(rows).toHaveLength(20);
    for (const row of rows) expect(row).toMatchObject({ joined: 1, notified: 1 });
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.assignee_operator_id, (counts.get(row.assignee_operator_id) ?? 0) + 1);
    expect(new Set(counts.keys())).toEqual(new Set(operatorIds));
    expect([...counts.values()].sort()).toEqual([6, 7, 7]);
  });
});
