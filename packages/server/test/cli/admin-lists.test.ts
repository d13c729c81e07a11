import { afterAll, beforeAll, expect, it } from "vitest";
import type { AdminCommandInput } from "../../src/admin/admin-command.js";
import { sendAdminCommand } from "../../src/admin/admin-socket.js";
import { hashApiToken } from "../../src/auth/api-token-secret.js";
import { createTestDatabase, dataDirWithMigratedStore, describeEachStore, type TestDatabase } from "../support/test-database.js";
import { freePort, run, startServer, stopServer, type Run } from "./cli-process.js";

type Row = Record<string, unknown> & { id: string };

/** A list command prints one JSON array on stdout. */
function rows(result: Run): Row[] {
  expect(result.code, result.stderr).toBe(0);
  const value = JSON.parse(result.stdout) as unknown;
  expect(Array.isArray(value)).toBe(true);
  return value as Row[];
}

function errorOf(result: Run): { code: string; message: string } {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  return (JSON.parse(result.stderr) as { error: { code: string; message: string } }).error;
}

describeEachStore("admin list commands on %s", (kind) => {
  let env: Record<string, string>;
  let database: TestDatabase | null = null;

  beforeAll(async () => {
    env = { FRONTDESK_DATA_DIR: await dataDirWithMigratedStore(kind, "frontdesk-lists-"), FRONTDESK_LOG_LEVEL: "warn", FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD: "false" };
    if (kind === "postgres") {
      database = await createTestDatabase("postgres");
      env.FRONTDESK_DATABASE_URL = database.url!;
    }
  }, 180_000);
  afterAll(async () => {
    await database?.drop();
  });

  it("happy: every list finds again what was created (other workspaces left out), through the running server and on the store directly", async () => {
    const admin = (...args: string[]) => run(env, "admin", ...args);
    const lists = async (workspaceId: string, agentId: string, secrets: string[]) => {
      const tokens = await admin("token", "list", "--workspace", workspaceId);
      for (const secret of secrets) {
        expect(tokens.stdout).not.toContain(secret);
        expect(tokens.stdout).not.toContain(hashApiToken(secret));
      }
      return {
        workspaces: rows(await admin("workspace", "list")),
        agents: rows(await admin("agent", "list", "--workspace", workspaceId)),
        operators: rows(await admin("operator", "list", "--workspace", workspaceId)),
        tokens: rows(tokens),
        sources: rows(await admin("source", "list", "--agent", agentId)),
      };
    };

    const port = await freePort();
    const { child: server, log } = await startServer(env, port);
    let throughServer!: Awaited<ReturnType<typeof lists>>;
    let first!: Row;
    let bot!: Row;
    let secrets!: string[];
    try {
      // The rows to list, made through the socket in this process (the CLI's create commands have tests of their own).
      const send = async (command: AdminCommandInput) => {
        const reply = await sendAdminCommand(env.FRONTDESK_DATA_DIR!, command);
        if (!reply?.ok) throw new Error(JSON.stringify(reply));
        return reply.result as Row;
      };
      first = await send({ command: "workspace.create", name: "First" });
      const second = await send({ command: "workspace.create", name: "Second", conversationQuota: 10 });
      bot = await send({ command: "agent.create", workspaceId: first.id, name: "Bot", origins: ["https://shop.test"] });
      const draft = await send({ command: "agent.create", workspaceId: first.id, name: "Draft", origins: ["https://shop.test"], draft: true });
      await send({ command: "agent.create", workspaceId: second.id, name: "Elsewhere", origins: ["https://other.test"] });
      // operator create also prints a set-password link, which lists leave out.
      const createdOperator = await send({ command: "operator.create", workspaceId: first.id, email: "ops@shop.test", name: "Ops" });
      const operator = Object.fromEntries(Object.entries(createdOperator).filter(([key]) => !key.startsWith("set_password_")));
      await send({ command: "operator.create", workspaceId: second.id, email: "ops@other.test", name: "Other ops" });
      const live = await send({ command: "token.create", workspaceId: first.id, name: "CMS", abilities: ["sources:write", "sources:read"] });
      const old = await send({ command: "token.create", workspaceId: first.id, name: "Old" });
      await send({ command: "token.create", workspaceId: second.id, name: "Other" });
      const revoked = await send({ command: "token.revoke", tokenId: old.id });
      secrets = [live.token, old.token].map(String);
      expect(rows(await admin("source", "list", "--agent", bot.id))).toEqual([]);

      const created = await fetch(`http://127.0.0.1:${port}/api/v1/workspace/sources`, {
        method: "POST",
        headers: { authorization: `Bearer ${String(live.token)}`, "content-type": "application/json" },
        body: JSON.stringify({ agent_id: bot.id, kind: "text", title: "Returns", content: "Returns are free within 30 days." }),
      });
      expect(created.status).toBe(201);
      const source = ((await created.json()) as { data: Row }).data;

      throughServer = await lists(first.id, bot.id, secrets);
      expect(throughServer.workspaces).toEqual([first, second]);
      expect(throughServer.agents).toEqual([bot, draft]);
      expect(throughServer.operators).toEqual([operator]);
      expect(throughServer.tokens).toHaveLength(2);
      for (const token of throughServer.tokens) {
        expect(Object.keys(token).sort()).toEqual(["abilities", "created_at", "id", "last_used_at", "name", "prefix", "revoked_at", "workspace_id"]);
      }
      expect(throughServer.tokens[0]).toEqual({
        id: live.id,
        workspace_id: first.id,
        name: "CMS",
        prefix: String(live.token).slice(0, 8),
        abilities: ["sources:write", "sources:read"],
        created_at: live.created_at,
        last_used_at: expect.any(String), // the source was created with it
        revoked_at: null,
      });
      expect(throughServer.tokens[1]).toEqual(revoked);
      expect(throughServer.sources).toEqual([expect.objectContaining({ id: source.id, agent_id: bot.id, kind: "text", config: expect.objectContaining({ title: "Returns" }) })]);
      expect(rows(await admin("source", "list", "--agent", draft.id))).toEqual([]);
    } finally {
      await stopServer(server);
    }
    expect(server.exitCode, log()).toBe(0);

    // The server stopped: the same lists, read from the store directly (the source's status may have moved on).
    const direct = await lists(first.id, bot.id, secrets);
    expect({ ...direct, sources: direct.sources.map((row) => row.id) }).toEqual({ ...throughServer, sources: throughServer.sources.map((row) => row.id) });
  }, 300_000);

  // Its refusals come from the CLI's parsing and the use cases the in-process tests run on both
  // stores: through the binary they are checked once, on the embedded store.
  if (kind === "pglite")
    it("error: a list of an unknown workspace or agent is a not-found error; a missing flag is a usage error", async () => {
      for (const resource of ["agent", "operator", "token"]) {
        expect(errorOf(await run(env, "admin", resource, "list", "--workspace", "ws_missing"))).toMatchObject({ code: "not_found", message: "No workspace ws_missing." });
        const usage = await run(env, "admin", resource, "list");
        expect(usage.code).toBe(2);
        expect(JSON.parse(usage.stderr.split("\n")[0]!).error).toMatchObject({ code: "usage", message: "--workspace is required" });
      }
      expect(errorOf(await run(env, "admin", "source", "list", "--agent", "agt_missing"))).toMatchObject({ code: "not_found", message: "No agent agt_missing." });
      expect((await run(env, "admin", "source", "list")).code).toBe(2);
    }, 300_000);
});
