import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, dataDirWithMigratedStore, describeEachStore, type TestDatabase } from "../support/test-database.js";
import { frontdesk } from "./frontdesk-process.js";

/** A failed start must exit by itself: well within this, however loaded the machine. */
const EXIT_AFTER_FAILURE_MS = 10_000;
/** Starting (opening the store, migrating) before the failure can take long on a busy machine. */
const START_MS = 60_000;

const dataDir = () => mkdtemp(join(tmpdir(), "frontdesk-failed-start-"));

function occupyPort(): Promise<{ port: number; server: Server }> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ port: typeof address === "object" && address ? address.port : 0, server });
    });
  });
}

describe("configuration errors exit 78 naming the variable, before opening anything", () => {
  const cases: { name: string; env: Record<string, string>; args: string[]; names: RegExp }[] = [
    { name: "anthropic answers without a model", env: { FRONTDESK_LLM_PROVIDER: "anthropic" }, args: ["serve"], names: /FRONTDESK_LLM_MODEL: required when FRONTDESK_LLM_PROVIDER is anthropic/ },
    { name: "openai embeddings without a base URL", env: { FRONTDESK_EMBEDDINGS_PROVIDER: "openai", FRONTDESK_EMBEDDINGS_MODEL: "m" }, args: ["serve"], names: /FRONTDESK_EMBEDDINGS_BASE_URL: required/ },
    { name: "a worker on the embedded store", env: {}, args: ["worker"], names: /FRONTDESK_DATABASE_URL: required by `frontdesk worker`/ },
    { name: "serve with no workers on the embedded store", env: { FRONTDESK_WORKER_CONCURRENCY: "0" }, args: ["serve"], names: /FRONTDESK_WORKER_CONCURRENCY: 0 starts no indexing workers.*sources would stay pending forever/ },
    { name: "a malformed value", env: { FRONTDESK_PORT: "not-a-port" }, args: ["serve"], names: /FRONTDESK_PORT/ },
  ];
  for (const { name, env, args, names } of cases) {
    it(`error: ${name}`, async () => {
      const started = frontdesk({ FRONTDESK_DATA_DIR: await dataDir(), FRONTDESK_EMBEDDINGS_PROVIDER: "hashing", ...env }, ...args);
      expect(await started.exit(START_MS)).toBe(78);
      expect(started.output()).toMatch(/^Invalid configuration:/);
      expect(started.output()).toMatch(names);
      expect(started.output()).not.toContain("internal_error");
    });
  }
});

describeEachStore("a start that fails after opening the store exits at once (%s)", (kind) => {
  let database: TestDatabase | null = null;
  let env: Record<string, string>;

  beforeAll(async () => {
    env = { FRONTDESK_DATA_DIR: await dataDirWithMigratedStore(kind, "frontdesk-failed-start-"), FRONTDESK_EMBEDDINGS_PROVIDER: "hashing", FRONTDESK_LOG_LEVEL: "info" };
    if (kind === "postgres") {
      database = await createTestDatabase("postgres");
      env.FRONTDESK_DATABASE_URL = database.url!;
    }
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("error: serve on an occupied port (store, job queue and workers already open) exits 1 naming the cause", async () => {
    const occupied = await occupyPort();
    try {
      const started = frontdesk(env, "serve", "--port", String(occupied.port));
      await started.waitFor(/workers started/, START_MS);
      await started.waitFor(/start failed: listen EADDRINUSE/, START_MS);
      expect(await started.exit(EXIT_AFTER_FAILURE_MS)).toBe(1);
      expect(started.output()).toMatch(/"level":60/);
    } finally {
      occupied.server.close();
    }
  }, 2 * START_MS);

  // `worker` runs on Postgres only (on PGlite it is a configuration error, tested above), so the
  // case exists only there rather than showing as a skipped test on PGlite.
  if (kind === "postgres") it("error: a worker whose metrics port is occupied exits 1", async () => {
    const occupied = await occupyPort();
    try {
      const started = frontdesk({ ...env, FRONTDESK_METRICS_PORT: String(occupied.port) }, "worker");
      await started.waitFor(/start failed: .*EADDRINUSE/, START_MS);
      expect(await started.exit(EXIT_AFTER_FAILURE_MS)).toBe(1);
    } finally {
      occupied.server.close();
    }
  }, 2 * START_MS);
});

describe("a start whose store cannot be reached", () => {
  it("error: a Postgres URL to a closed port exits 1 naming the refusal", async () => {
    const closed = await occupyPort();
    await new Promise((resolve) => closed.server.close(resolve));
    const env = { FRONTDESK_DATA_DIR: await dataDir(), FRONTDESK_EMBEDDINGS_PROVIDER: "hashing", FRONTDESK_DATABASE_URL: `postgres://postgres@127.0.0.1:${closed.port}/frontdesk` };
    for (const command of ["serve", "worker"]) {
      const started = frontdesk(env, command, ...(command === "serve" ? ["--port", "0"] : []));
      await started.waitFor(/start failed: connect ECONNREFUSED/, START_MS);
      expect(await started.exit(EXIT_AFTER_FAILURE_MS)).toBe(1);
    }
  }, 2 * START_MS);
});

describe("a start whose data dir cannot be created", () => {
  it("error: a data dir under /proc (where Node's recursive mkdir never returns) or under a file exits 1 naming the directory", async () => {
    const file = join(await dataDir(), "a-file");
    await writeFile(file, "");
    for (const directory of ["/proc/frontdesk-data", join(file, "data")]) {
      const started = frontdesk({ FRONTDESK_DATA_DIR: directory, FRONTDESK_EMBEDDINGS_PROVIDER: "hashing" }, "serve", "--port", "0");
      await started.waitFor(/start failed: cannot create the directory/, START_MS);
      expect(await started.exit(EXIT_AFTER_FAILURE_MS)).toBe(1);
      expect(started.output()).toContain(directory.startsWith("/proc") ? "/proc/frontdesk-data" : file);
    }
  }, 2 * START_MS);
});

describe("one embedded store, one process", () => {
  it("error: two first starts at once on a new PGlite data dir: one serves, the other exits 1 naming the holder's pid (no child's stack)", async () => {
    const env = { FRONTDESK_DATA_DIR: join(await dataDir(), "new"), FRONTDESK_EMBEDDINGS_PROVIDER: "hashing", FRONTDESK_LOG_LEVEL: "info" };
    const both = [frontdesk(env, "serve", "--port", "0"), frontdesk(env, "serve", "--port", "0")];
    try {
      const loser = await Promise.race(both.map((started) => started.exit(START_MS).then(() => started)));
      const winner = both.find((started) => started !== loser)!;
      expect(loser.child.exitCode).toBe(1);
      expect(loser.output()).toMatch(new RegExp(`Another Frontdesk process \\(pid ${winner.child.pid}\\) is using the embedded store in ${env.FRONTDESK_DATA_DIR}`));
      expect(loser.output()).not.toMatch(/wasm|RuntimeError|Aborted/);
      await winner.waitFor(/Frontdesk is listening/, START_MS);
      winner.child.kill("SIGTERM");
      expect(await winner.exit(30_000)).toBe(0);
      // The lock went with the winner: the data dir opens again.
      const migrate = frontdesk(env, "migrate");
      expect(await migrate.exit(START_MS)).toBe(0);
    } finally {
      for (const started of both) if (started.child.exitCode === null) started.child.kill("SIGKILL");
    }
  }, 3 * START_MS);

  it("happy: a pid file left by a process that died (SIGKILL) is taken over at once", async () => {
    // An existing store (a first start is the test above): the subject is the pid file.
    const env = { FRONTDESK_DATA_DIR: await dataDirWithMigratedStore("pglite", "frontdesk-failed-start-"), FRONTDESK_EMBEDDINGS_PROVIDER: "hashing", FRONTDESK_LOG_LEVEL: "info" };
    const first = frontdesk(env, "serve", "--port", "0");
    await first.waitFor(/Frontdesk is listening/, START_MS);
    first.child.kill("SIGKILL");
    await first.exit(30_000);
    expect(await readFile(join(env.FRONTDESK_DATA_DIR, "pglite.pid"), "utf8")).toBe(`${first.child.pid}\n`);
    const migrate = frontdesk(env, "migrate");
    expect(await migrate.exit(START_MS)).toBe(0);
  }, 3 * START_MS);
});
