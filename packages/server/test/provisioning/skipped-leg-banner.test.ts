import { spawn } from "node:child_process";
import { chmod, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../cli/cli-process.js";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const VITEST = join(ROOT, "node_modules", "vitest", "vitest.mjs");
const SCRIPT = join(ROOT, "scripts", "provision-test-machine.mjs");
/** A fast test file of the suite that needs only the `redis` leg. */
const REDIS_TEST_FILE = "packages/server/test/ratelimit/redis-shared-counters.test.ts";

interface Finished {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], env: Record<string, string>): Promise<Finished> {
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("FRONTDESK_TEST_") && !key.startsWith("VITEST")) clean[key] = value;
  }
  const child = spawn(command, args, { cwd: ROOT, env: { ...clean, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

/** The end-of-run banner: from its first rule to its last. */
const banner = (output: string) => output.slice(output.indexOf("TEST LEGS SKIPPED"));

describe("the suite with a skipped leg (a nested Vitest run)", () => {
  let env: Record<string, string>;
  let redisUrl: string;
  beforeAll(async () => {
    const records = await mkdtemp(join(tmpdir(), "frontdesk-legs-"));
    await chmod(records, 0o777);
    redisUrl = `redis://127.0.0.1:${await freePort()}`;
    env = {
      FRONTDESK_TEST_POSTGRES_URL: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`,
      FRONTDESK_TEST_REDIS_URL: redisUrl,
      FRONTDESK_TEST_LEGS_FILE: join(records, "test-legs.json"),
    };
  });

  it("happy: the leg's tests are counted as skipped, the run passes, and a banner at the end names the legs and why", async () => {
    const result = await run(process.execPath, [VITEST, "run", REDIS_TEST_FILE], env);
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/Tests\s+\d+ skipped/);
    expect(result.output).not.toMatch(/Tests\s+.*\d+ passed/);
    const text = banner(result.output);
    expect(result.output.match(/TEST LEGS SKIPPED/g)).toHaveLength(1);
    expect(text).toContain(`- redis: cannot connect to ${redisUrl}`);
    expect(text).toContain("- postgres: cannot connect to postgres://postgres@127.0.0.1:");
    expect(text).toContain("FRONTDESK_TEST_REQUIRE_ALL=1 turns a skipped leg into a failure");
    // The banner is the last thing the run prints.
    expect(result.output.indexOf("TEST LEGS SKIPPED")).toBeGreaterThan(result.output.lastIndexOf("Duration"));
  });

  it("error: with FRONTDESK_TEST_REQUIRE_ALL=1 a skipped leg fails the run", async () => {
    const result = await run(process.execPath, [VITEST, "run", REDIS_TEST_FILE], { ...env, FRONTDESK_TEST_REQUIRE_ALL: "1" });
    expect(result.code).toBe(1);
    expect(banner(result.output)).toContain("FRONTDESK_TEST_REQUIRE_ALL=1: a skipped leg fails this run.");
  });

  it.skipIf(process.getuid?.() !== 0)("happy: the banner gives the provisioning script's reason (here: not root)", async () => {
    const provisioned = await run("runuser", ["-u", "nobody", "--", process.execPath, SCRIPT], env);
    expect(provisioned.code).toBe(0);
    const result = await run(process.execPath, [VITEST, "run", REDIS_TEST_FILE], env);
    expect(banner(result.output)).toContain(`- redis: cannot connect to ${redisUrl}`);
    expect(banner(result.output)).toContain("starting it needs root (running as uid 65534)");
  });
});
