import { stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort, json, run, startServer, stopServer } from "./cli-process.js";
import { createTestDatabase, dataDirWithMigratedStore, describeEachStore, type TestDatabase } from "../support/test-database.js";

describeEachStore("bin/frontdesk on %s", (kind) => {
  let env: Record<string, string>;
  let database: TestDatabase | null = null;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await dataDirWithMigratedStore(kind);
    env = { FRONTDESK_DATA_DIR: dataDir, FRONTDESK_LOG_LEVEL: "warn", FRONTDESK_EMBEDDINGS_ALLOW_DOWNLOAD: "false" };
    if (kind === "postgres") {
      database = await createTestDatabase("postgres");
      env.FRONTDESK_DATABASE_URL = database.url!;
    }
  });
  afterAll(async () => {
    await database?.drop();
  });

  // The store starts migrated (a copy of the test template); migrate on a brand-new store: migrate.test.ts.
  it("happy: migrate on an up-to-date store applies nothing and says so", async () => {
    expect(json(await run(env, "migrate")).applied).toEqual([]);
  });

  it("happy: admin commands work with no server running, and again through a running server", async () => {
    const workspace = json(await run(env, "admin", "workspace", "create", "--name", "Acme", "--conversation-quota", "500"));
    expect(workspace).toMatchObject({ id: expect.stringMatching(/^ws_/), name: "Acme", conversation_quota: 500 });

    const port = await freePort();
    const { child: server, log: serverLog } = await startServer(env, port);
    try {
      // The local model is not on this machine and downloads are off: the service says so loudly and keeps working.
      const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as Record<string, unknown>;
      expect(health).toMatchObject({ status: "degraded", store: { ok: true }, embeddings: { degraded: true, id: "hashing:v1:384", reason: expect.any(String) } });
      expect(serverLog()).toMatch(/EMBEDDINGS DEGRADED/);
      if (kind === "pglite") {
        expect((await stat(join(dataDir, "admin.sock"))).mode & 0o777).toBe(0o600);
      }
      const agent = json(
        await run(env, "admin", "agent", "create", "--workspace", workspace.id, "--name", "Shop bot", "--origin", "https://shop.test",
          "--origin", "https://*.shop.test", "--vertical", "ecommerce", "--draft", "--persona-name", "Sam", "--tone", "upbeat",
          "--primary-color", "#ff6600", "--starter-prompt", "Track my order", "--starter-prompt", "Returns?", "--language", "fr"),
      );
      expect(agent).toMatchObject({
        published: false,
        vertical: "ecommerce",
        allowed_origins: ["https://shop.test", "https://*.shop.test"],
        persona: { name: "Sam", tone: "upbeat" },
        theme: { primary: "#ff6600" },
        starter_prompts: ["Track my order", "Returns?"],
        language_default: "fr",
      });
      const init = () =>
        fetch(`http://127.0.0.1:${port}/api/v1/widget/init`, {
          method: "POST",
          headers: { origin: "https://shop.test", "content-type": "application/json" },
          body: JSON.stringify({ agent_id: agent.id, page_url: "https://shop.test/" }),
        });
      expect((await init()).status).toBe(404);
      expect(json(await run(env, "admin", "agent", "publish", agent.id)).published).toBe(true);
      const session = (await (await init()).json()) as { data: { conversation_id: string; jwt: string } };
      expect(session.data.conversation_id).toMatch(/^cnv_/);

      const operator = json(await run(env, "admin", "operator", "create", "--workspace", workspace.id, "--email", "ops@shop.test", "--name", "Ops"));
      const widget = (path: string, body: unknown) =>
        fetch(`http://127.0.0.1:${port}/api/v1/widget${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${session.data.jwt}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      expect((await widget("/leads", { email: "buyer@example.com", name: "Buyer" })).status).toBe(201);
      expect((await widget("/request-human", { reason: "help" })).status).toBe(200);
      expect((await widget("/satisfaction", { rating: "good", comment: "great" })).status).toBe(200);
      expect((await widget("/coupon/apply", { code: "WELCOME-10" })).status).toBe(200);

      const leads = JSON.parse((await run(env, "admin", "lead", "list", "--agent", agent.id)).stdout) as unknown[];
      expect(leads).toHaveLength(1);
      expect(leads[0]).toMatchObject({ email: "buyer@example.com", name: "Buyer" });
      const conversation = json(await run(env, "admin", "conversation", "show", session.data.conversation_id));
      expect(conversation).toMatchObject({
        human_requested_at: expect.any(String),
        coupon_code: "WELCOME-10",
        satisfaction: { rating: "good", comment: "great" },
        status: "awaiting_human",
        messages: [expect.objectContaining({ role: "system", content: "Waiting for a person to join" })],
      });
      const inbox = JSON.parse((await run(env, "admin", "inbox", "list", "--operator", operator.id)).stdout) as unknown[];
      expect(inbox).toEqual([expect.objectContaining({ kind: "human_requested", conversation_id: session.data.conversation_id })]);

      const token = json(await run(env, "admin", "token", "create", "--workspace", workspace.id, "--name", "CMS sync"));
      expect(token.token).toMatch(/^fdk_[A-Za-z0-9]{48}$/);
      expect(token.abilities).toEqual(["sources:write"]);
      const revoked = json(await run(env, "admin", "token", "revoke", token.id));
      expect(revoked.revoked_at).toEqual(expect.any(String));
      expect(revoked).not.toHaveProperty("token");

      const missing = await run(env, "admin", "agent", "publish", "agt_missing");
      expect(missing.code).toBe(1);
      expect(missing.stdout).toBe("");
      expect(JSON.parse(missing.stderr).error.code).toBe("not_found");
    } finally {
      await stopServer(server);
    }
    expect(server.exitCode, serverLog()).toBe(0);
    // After the server stopped, the same store answers directly.
    const after = JSON.parse((await run(env, "admin", "lead", "list", "--agent", (JSON.parse(
      (await run(env, "admin", "agent", "create", "--workspace", workspace.id, "--name", "B", "--origin", "https://b.test")).stdout,
    ) as { id: string }).id)).stdout);
    expect(after).toEqual([]);
    // A bound for a stuck process, not a speed requirement: a dozen processes each load the service.
  }, 120_000);

  // Its refusals come from the CLI's parsing and the use cases the in-process tests run on both
  // stores: through the binary they are checked once, on the embedded store.
  if (kind === "pglite")
    it("error: usage and validation errors go to stderr with a non-zero exit and nothing on stdout", async () => {
      const unknown = await run(env, "admin", "nonsense");
      expect(unknown.code).toBe(2);
      expect(unknown.stdout).toBe("");
      const badOrigin = await run(env, "admin", "agent", "create", "--workspace", "ws_x", "--name", "x", "--origin", "not a url");
      expect(badOrigin.code).toBe(1);
      expect(badOrigin.stdout).toBe("");
      expect(JSON.parse(badOrigin.stderr).error.code).toMatch(/not_found|validation_failed/);
      const noOrigin = await run(env, "admin", "agent", "create", "--workspace", "ws_x", "--name", "x");
      expect(JSON.parse(noOrigin.stderr).error).toMatchObject({ code: "validation_failed", fields: { origins: expect.any(Array) } });
      const badQuota = await run(env, "admin", "workspace", "create", "--name", "x", "--conversation-quota", "-3");
      expect(badQuota.code).toBe(2);
    });

  if (kind === "pglite")
    it("error: a bad configuration value stops the start naming the variable", async () => {
      const result = await run({ ...env, FRONTDESK_PORT: "not-a-port" }, "serve");
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("FRONTDESK_PORT");
    });
});
