import { createHmac } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sendAdminCommand } from "../../src/admin/admin-socket.js";
import { createTestDatabase, dataDirWithMigratedStore, describeEachStore, type TestDatabase } from "../support/test-database.js";
import { freePort, json, run, startServer, stopServer } from "./cli-process.js";

/** The identity secret and mode of verified visitors (issue 34) through the real CLI, on the store directly. */
describeEachStore("admin agent identity-secret and --identity on %s", (kind) => {
  let env: Record<string, string>;
  let database: TestDatabase | null = null;
  const admin = (...args: string[]) => run(env, "admin", ...args);

  beforeAll(async () => {
    env = { FRONTDESK_DATA_DIR: await dataDirWithMigratedStore(kind, "frontdesk-identity-"), FRONTDESK_LOG_LEVEL: "warn", FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD: "false" };
    if (kind === "postgres") {
      database = await createTestDatabase("postgres");
      env.FRONTDESK_DATABASE_URL = database.url!;
    }
  }, 180_000);
  afterAll(async () => {
    await database?.drop();
  });

  it("happy: identity-secret prints {secret} once, --identity needs it, and the agent shows the mode but never the secret", async () => {
    const workspaceId = json(await admin("workspace", "create", "--name", "Acme")).id;
    const agent = json(await admin("agent", "create", "--workspace", workspaceId, "--name", "Shop bot", "--origin", "https://shop.test"));
    expect(agent.identity).toEqual({ mode: "off", secret_created_at: null });

    const early = await admin("agent", "update", agent.id, "--identity", "required");
    expect(early.code).toBe(1);
    expect(JSON.parse(early.stderr).error).toMatchObject({ code: "validation_failed", fields: { identityMode: [expect.stringContaining("identity secret")] } });

    const printed = await admin("agent", "identity-secret", agent.id);
    expect(printed.code, printed.stderr).toBe(0);
    const output = JSON.parse(printed.stdout) as Record<string, unknown>;
    expect(Object.keys(output)).toEqual(["secret"]);
    expect(output.secret).toMatch(/^fid_[A-Za-z0-9_-]{43}$/);

    const updated = json(await admin("agent", "update", agent.id, "--identity", "required"));
    expect(updated.identity).toEqual({ mode: "required", secret_created_at: expect.any(String) });
    const listed = await admin("agent", "list", "--workspace", workspaceId);
    expect(listed.stdout).not.toContain(String(output.secret).slice(4));

    const missing = await admin("visitor", "erase", "--workspace", workspaceId, "--agent", agent.id, "--user-id", "customer-1");
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr).error.code).toBe("visitor_not_found");
  }, 300_000);

  // The wiring of `serve`'s admin socket, checked once, on the embedded store.
  if (kind === "pglite")
    it("security: through the running server, a rotation revokes the old hash at once and the new one verifies", async () => {
      const workspaceId = json(await admin("workspace", "create", "--name", "Live")).id;
      const agent = json(await admin("agent", "create", "--workspace", workspaceId, "--name", "Live bot", "--origin", "https://live.test"));
      const port = await freePort();
      const { child: server } = await startServer(env, port);
      const hashOf = (secret: string) => createHmac("sha256", secret).update("customer-9").digest("hex");
      const init = (userHash: string) =>
        fetch(`http://127.0.0.1:${port}/api/v1/widget/init`, {
          method: "POST",
          headers: { origin: "https://live.test", "content-type": "application/json" },
          body: JSON.stringify({ agent_id: agent.id, page_url: "https://live.test/", user_id: "customer-9", user_hash: userHash }),
        });
      try {
        const first = (await sendAdminCommand(env.FRONTDESK_DATA_DIR!, { command: "agent.identity-secret", agentId: agent.id })) as { ok: boolean; result: { secret: string } };
        expect(first.ok).toBe(true);
        expect(await sendAdminCommand(env.FRONTDESK_DATA_DIR!, { command: "agent.update", agentId: agent.id, identityMode: "optional" })).toMatchObject({ ok: true });
        expect((await init(hashOf(first.result.secret))).status).toBe(200); // the server now holds the agent in its cache
        const second = (await sendAdminCommand(env.FRONTDESK_DATA_DIR!, { command: "agent.identity-secret", agentId: agent.id })) as { result: { secret: string } };
        const stale = await init(hashOf(first.result.secret));
        expect(stale.status).toBe(401);
        expect(((await stale.json()) as { error: { code: string } }).error.code).toBe("identity_invalid");
        expect((await init(hashOf(second.result.secret))).status).toBe(200);
      } finally {
        await stopServer(server);
      }
    }, 300_000);
});
