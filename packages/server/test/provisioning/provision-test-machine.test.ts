import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { chmod, mkdtemp, readFile, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../cli/cli-process.js";
import { missingLegs } from "../support/test-legs.js";
import { startPostgresWithoutPgvector, type PostgresWithoutPgvector } from "./postgres-without-pgvector.js";

const SCRIPT = fileURLToPath(new URL("../../../../scripts/provision-test-machine.mjs", import.meta.url));
const isRoot = process.getuid?.() === 0;

interface LegOutcome {
  name: string;
  target: string;
  status: "ready" | "skipped";
  reason: string | null;
  actions: string[];
}
interface Provisioned {
  code: number | null;
  stdout: string;
  stderr: string;
  legs: Record<string, LegOutcome>;
}

/** The environment without the caller's own leg settings, so each test says where the legs are. */
function baseEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("FRONTDESK_TEST_") && !key.startsWith("VITEST")) env[key] = value;
  }
  return env;
}

/** Runs the provisioning script as `npm test` does (optionally as another user) and reads its leg record. */
async function provision(env: Record<string, string>, options: { asUser?: string; recordDir?: string } = {}): Promise<Provisioned> {
  const recordDir = options.recordDir ?? (await mkdtemp(join(tmpdir(), "frontdesk-legs-")));
  const record = join(recordDir, "test-legs.json");
  const fullEnv = { ...baseEnvironment(), FRONTDESK_TEST_LEGS_FILE: record, ...env };
  const [command, args] = options.asUser
    ? ["runuser", ["-u", options.asUser, "--", process.execPath, SCRIPT]]
    : [process.execPath, [SCRIPT]];
  const child = spawn(command, args, { env: fullEnv, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const written = JSON.parse(await readFile(record, "utf8")) as { legs: LegOutcome[] };
  return { code, stdout, stderr, legs: Object.fromEntries(written.legs.map((leg) => [leg.name, leg])) };
}

describe("scripts/provision-test-machine.mjs", () => {
  let closed: { postgres: string; redis: string; headlessShell: string; chromium: string; dovecot: string; haproxy: string; postgresPort: number; redisPort: number };
  beforeAll(async () => {
    const [postgresPort, redisPort] = [await freePort(), await freePort()];
    closed = {
      postgres: `postgres://postgres:secret@127.0.0.1:${postgresPort}/postgres`,
      redis: `redis://127.0.0.1:${redisPort}`,
      headlessShell: join(await mkdtemp(join(tmpdir(), "frontdesk-no-headless-shell-")), "chromium-headless-shell"),
      chromium: join(await mkdtemp(join(tmpdir(), "frontdesk-no-chromium-")), "chromium"),
      dovecot: join(await mkdtemp(join(tmpdir(), "frontdesk-no-dovecot-")), "dovecot"),
      haproxy: join(await mkdtemp(join(tmpdir(), "frontdesk-no-haproxy-")), "haproxy"),
      postgresPort,
      redisPort,
    };
  });
  const closedLegs = () => ({ FRONTDESK_TEST_POSTGRES_URL: closed.postgres, FRONTDESK_TEST_REDIS_URL: closed.redis, FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH: closed.headlessShell, FRONTDESK_TEST_CHROMIUM_PATH: closed.chromium, FRONTDESK_TEST_DOVECOT_PATH: closed.dovecot, FRONTDESK_TEST_HAPROXY_PATH: closed.haproxy });

  it("error: legs it cannot provide are recorded as skipped with the reason, and it still exits 0", async () => {
    const result = await provision(closedLegs());
    expect(result.code).toBe(0);
    const { postgres, redis } = result.legs;
    expect(postgres).toMatchObject({ status: "skipped", target: `postgres://postgres:***@127.0.0.1:${closed.postgresPort}/postgres`, actions: [] });
    expect(postgres?.reason).toContain(`cannot connect to postgres://postgres:***@127.0.0.1:${closed.postgresPort}/postgres`);
    expect(postgres?.reason).not.toContain("secret");
    expect(redis).toMatchObject({ status: "skipped", target: closed.redis, actions: [] });
    expect(redis?.reason).toContain(`cannot connect to ${closed.redis}`);
    expect(result.legs["chromium-headless-shell"]).toMatchObject({ status: "skipped", target: closed.headlessShell, actions: [] });
    expect(result.legs["chromium-headless-shell"]?.reason).toBe(
      `no Chromium at ${closed.headlessShell}; this script installs Chromium only at /usr/lib/chromium/chromium-headless-shell (Debian's package)`,
    );
    expect(result.legs.chromium).toMatchObject({ status: "skipped", target: closed.chromium, actions: [] });
    expect(result.legs.chromium?.reason).toBe(`no Chromium at ${closed.chromium}; this script installs Chromium only at /usr/bin/chromium (Debian's package)`);
    expect(result.legs.dovecot).toMatchObject({ status: "skipped", target: closed.dovecot, actions: [] });
    expect(result.legs.dovecot?.reason).toBe(`no Dovecot at ${closed.dovecot}; this script installs Dovecot only at /usr/sbin/dovecot (Debian's package)`);
    expect(result.legs.haproxy).toMatchObject({ status: "skipped", target: closed.haproxy, actions: [] });
    expect(result.legs.haproxy?.reason).toBe(`no HAProxy at ${closed.haproxy}; this script installs HAProxy only at /usr/sbin/haproxy (Debian's package)`);
    if (isRoot) {
      // Root on this machine: what it would provision is only the local cluster's port and Redis at 6379.
      expect(postgres?.reason).toContain(`no Postgres cluster of this machine is configured on port ${closed.postgresPort}`);
      expect(redis?.reason).toContain("this script starts Redis only at 127.0.0.1:6379");
    }
    expect(result.stderr).toContain(`SKIPPED leg postgres: ${postgres?.reason}`);
    expect(result.stderr).toContain(`SKIPPED leg redis: ${redis?.reason}`);
    expect(result.stderr).toContain(`SKIPPED leg chromium-headless-shell: ${result.legs["chromium-headless-shell"]?.reason}`);
    expect(result.stderr).toContain(`SKIPPED leg chromium: ${result.legs.chromium?.reason}`);
    expect(result.stderr).toContain(`SKIPPED leg dovecot: ${result.legs.dovecot?.reason}`);
    expect(result.stderr).toContain(`SKIPPED leg haproxy: ${result.legs.haproxy?.reason}`);
    expect(result.stdout).toMatch(/postgres skipped, redis skipped, chromium-headless-shell skipped, chromium skipped, dovecot skipped, haproxy skipped in \d+ ms/);
  });

  it("error: FRONTDESK_TEST_REQUIRE_ALL=1 turns a skipped leg into exit 1", async () => {
    const result = await provision({ ...closedLegs(), FRONTDESK_TEST_REQUIRE_ALL: "1" });
    expect(result.code).toBe(1);
    expect(result.legs.postgres?.status).toBe("skipped");
    expect(result.stderr).toContain("FRONTDESK_TEST_REQUIRE_ALL=1 and 6 leg(s) skipped: failing");
  });

  it("error: a machine without Postgres or Redis installed says so", async () => {
    const bin = await mkdtemp(join(tmpdir(), "frontdesk-bare-path-"));
    await symlink(process.execPath, join(bin, "node"));
    const result = await provision({ ...closedLegs(), PATH: bin });
    expect(result.code).toBe(0);
    expect(result.legs.postgres?.reason).toContain("Postgres is not installed here (no pg_lsclusters)");
    expect(result.legs.redis?.reason).toContain("Redis is not installed here (no redis-server)");
  });

  it("error: a leg on another machine is left alone", async () => {
    const result = await provision({
      FRONTDESK_TEST_POSTGRES_URL: "postgres://postgres@frontdesk-test.invalid:5432/postgres",
      FRONTDESK_TEST_REDIS_URL: "redis://frontdesk-test.invalid:6379",
    });
    expect(result.code).toBe(0);
    expect(result.legs.postgres?.reason).toContain("frontdesk-test.invalid is another machine, which this script leaves alone");
    expect(result.legs.redis?.reason).toContain("frontdesk-test.invalid is another machine, which this script leaves alone");
  });

  it.skipIf(!isRoot)("error: not root, it cannot start or build anything and says so", async () => {
    const recordDir = await mkdtemp(join(tmpdir(), "frontdesk-legs-"));
    await chmod(recordDir, 0o777);
    const result = await provision(closedLegs(), { asUser: "nobody", recordDir });
    expect(result.code).toBe(0);
    expect(result.legs.postgres?.reason).toContain("provisioning it needs root (running as uid 65534)");
    expect(result.legs.redis?.reason).toContain("starting it needs root (running as uid 65534)");
  });

  describe("a Postgres that answers but has no pgvector (a stand-in on loopback), and a Redis that wants a password", () => {
    let postgres: PostgresWithoutPgvector;
    let redis: Server;
    let redisUrl: string;
    beforeAll(async () => {
      postgres = await startPostgresWithoutPgvector();
      redis = createServer((socket) => socket.on("data", () => socket.write("-NOAUTH Authentication required.\r\n")));
      await new Promise<void>((resolve) => redis.listen(0, "127.0.0.1", resolve));
      const address = redis.address();
      redisUrl = `redis://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    });
    afterAll(async () => {
      await postgres.close();
      await new Promise<void>((resolve) => redis.close(() => resolve()));
    });

    it("error: the missing extension and the refusal are the recorded reasons", async () => {
      const result = await provision({ FRONTDESK_TEST_POSTGRES_URL: postgres.url, FRONTDESK_TEST_REDIS_URL: redisUrl });
      expect(result.code).toBe(0);
      expect(postgres.queries.some((query) => query.includes("FROM pg_available_extensions WHERE name = 'vector'"))).toBe(true);
      expect(result.legs.postgres?.status).toBe("skipped");
      expect(result.legs.postgres?.reason).toContain(`pgvector is not installed on Postgres 15 at ${postgres.url}`);
      expect(result.legs.redis?.reason).toContain(`${redisUrl} answered -NOAUTH Authentication required.`);
      if (isRoot) expect(result.legs.postgres?.reason).toContain(`no Postgres cluster of this machine is configured on port ${postgres.port}`);
    });

    it.skipIf(!isRoot)("error: not root, pgvector cannot be built and the reason says so", async () => {
      const recordDir = await mkdtemp(join(tmpdir(), "frontdesk-legs-"));
      await chmod(recordDir, 0o777);
      const result = await provision({ FRONTDESK_TEST_POSTGRES_URL: postgres.url }, { asUser: "nobody", recordDir });
      expect(result.code).toBe(0);
      expect(result.legs.postgres?.reason).toBe(
        `pgvector is not installed on Postgres 15 at ${postgres.url}; provisioning it needs root (running as uid 65534)`,
      );
    });
  });

  describe("on this machine's legs", () => {
    // These need the legs themselves; on a machine without them they are skipped like the rest.
    const machineLegs = () => missingLegs(["postgres", "redis", "chromium-headless-shell", "chromium", "dovecot", "haproxy"]).length > 0;

    it.skipIf(machineLegs())("happy: everything already there is ready, nothing is done, even with FRONTDESK_TEST_REQUIRE_ALL=1", async () => {
      const env: Record<string, string> = { FRONTDESK_TEST_REQUIRE_ALL: "1" };
      if (process.env.FRONTDESK_TEST_POSTGRES_URL) env.FRONTDESK_TEST_POSTGRES_URL = process.env.FRONTDESK_TEST_POSTGRES_URL;
      if (process.env.FRONTDESK_TEST_REDIS_URL) env.FRONTDESK_TEST_REDIS_URL = process.env.FRONTDESK_TEST_REDIS_URL;
      if (process.env.FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH) env.FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH = process.env.FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH;
      if (process.env.FRONTDESK_TEST_CHROMIUM_PATH) env.FRONTDESK_TEST_CHROMIUM_PATH = process.env.FRONTDESK_TEST_CHROMIUM_PATH;
      if (process.env.FRONTDESK_TEST_DOVECOT_PATH) env.FRONTDESK_TEST_DOVECOT_PATH = process.env.FRONTDESK_TEST_DOVECOT_PATH;
      if (process.env.FRONTDESK_TEST_HAPROXY_PATH) env.FRONTDESK_TEST_HAPROXY_PATH = process.env.FRONTDESK_TEST_HAPROXY_PATH;
      const result = await provision(env);
      expect(result.code).toBe(0);
      expect(result.legs.postgres).toMatchObject({ status: "ready", reason: null, actions: [] });
      expect(result.legs.redis).toMatchObject({ status: "ready", reason: null, actions: [] });
      expect(result.legs["chromium-headless-shell"]).toMatchObject({
        status: "ready",
        target: env.FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/lib/chromium/chromium-headless-shell",
        reason: null,
        actions: [],
      });
      expect(result.legs.chromium).toMatchObject({ status: "ready", target: env.FRONTDESK_TEST_CHROMIUM_PATH ?? "/usr/bin/chromium", reason: null, actions: [] });
      expect(result.legs.dovecot).toMatchObject({ status: "ready", target: env.FRONTDESK_TEST_DOVECOT_PATH ?? "/usr/sbin/dovecot", reason: null, actions: [] });
      expect(result.legs.haproxy).toMatchObject({ status: "ready", target: env.FRONTDESK_TEST_HAPROXY_PATH ?? "/usr/sbin/haproxy", reason: null, actions: [] });
      expect(result.stderr).toBe("");
    });

    it.skipIf(machineLegs() || !isRoot)("happy: not root, legs already there are ready (probing needs no privilege)", async () => {
      const recordDir = await mkdtemp(join(tmpdir(), "frontdesk-legs-"));
      await chmod(recordDir, 0o777);
      const result = await provision({}, { asUser: "nobody", recordDir });
      expect(result.code).toBe(0);
      expect(result.legs.postgres?.status).toBe("ready");
      expect(result.legs.redis?.status).toBe("ready");
      expect(result.legs["chromium-headless-shell"]?.status).toBe("ready");
      expect(result.legs.chromium?.status).toBe("ready");
      expect(result.legs.dovecot?.status).toBe("ready");
      expect(result.legs.haproxy?.status).toBe("ready");
    });
  });
});
