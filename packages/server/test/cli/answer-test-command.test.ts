import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestDatabase, dataDirWithMigratedStore, describeEachStore, type TestDatabase } from "../support/test-database.js";
import { json, run } from "./cli-process.js";

describeEachStore("bin/frontdesk admin answer-test on %s", (kind) => {
  let env: Record<string, string>;
  let database: TestDatabase | null = null;

  beforeAll(async () => {
    env = {
      FRONTDESK_DATA_DIR: await dataDirWithMigratedStore(kind, "frontdesk-answer-tests-"),
      FRONTDESK_LOG_LEVEL: "warn",
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
    };
    if (kind === "postgres") {
      database = await createTestDatabase("postgres");
      env.FRONTDESK_DATABASE_URL = database.url!;
    }
  }, 180_000);
  afterAll(async () => {
    await database?.drop();
  });

  it("happy: create then run prints {passed, failed, results}; error: a test without an expectation is refused before the store", async () => {
    const admin = (...args: string[]) => run(env, "admin", ...args);
    const workspace = json(await admin("workspace", "create", "--name", "Acme"));
    const agent = json(await admin("agent", "create", "--workspace", workspace.id, "--name", "Acme Assistant", "--origin", "https://shop.example.com"));
    const test = json(await admin("answer-test", "create", "--agent", agent.id, "--question", "Zorblat quixotic vexillology?", "--expect-unsure"));
    expect(test).toMatchObject({ agent_id: agent.id, expect_kind: "unsure", origin: "cli" });

    const ran = json(await admin("answer-test", "run", "--agent", agent.id));
    expect(ran).toMatchObject({ passed: 1, failed: 0, results: [{ id: test.id, question: "Zorblat quixotic vexillology?", passed: true, reason: "said it was unsure" }] });

    const refused = await admin("answer-test", "create", "--agent", agent.id, "--question", "Q?");
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({ code: "validation_failed", message: expect.stringContaining("give exactly one of --expect-url, --expect-text and --expect-unsure") });
  }, 180_000);
});
