import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, dataDirWithMigratedStore, describeEachStore, type TestDatabase } from "../support/test-database.js";
import { json, run } from "./cli-process.js";

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
});
