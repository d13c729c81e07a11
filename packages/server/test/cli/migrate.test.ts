import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrations } from "../../src/db/migrations/index.js";
import { describeEachStore } from "../support/test-database.js";
import { createEmptyPostgresDatabase } from "./frontdesk-process.js";
import { run } from "./cli-process.js";

describeEachStore("bin/frontdesk migrate on a brand-new %s store", (kind) => {
  let env: Record<string, string>;
  let drop: (() => Promise<void>) | null = null;

  beforeAll(async () => {
    env = { FRONTDESK_DATA_DIR: await mkdtemp(join(tmpdir(), "frontdesk-migrate-")), FRONTDESK_LOG_LEVEL: "warn" };
    if (kind === "postgres") {
      const database = await createEmptyPostgresDatabase();
      env.FRONTDESK_DATABASE_URL = database.url;
      drop = database.drop;
    }
  });
  afterAll(async () => {
    await drop?.();
  });

  it("happy: lists every migration it applied, then nothing the second time", async () => {
    const first = await run(env, "migrate");
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ applied: migrations.map((migration) => migration.name) });
    const second = await run(env, "migrate");
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ applied: [] });
  }, 120_000);
});
