// The service under test for bench/widget.mjs: a fresh Postgres database, `frontdesk serve` as a
// child process, seeding through the admin CLI, and the session pool for leads and events.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { cpus, freemem, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { BenchFailure, createBenchDatabase, freePort, runAdmin, startService } from "./bench-service.mjs";

export { BenchFailure, createBenchDatabase, freePort };

/**
 * What a run must undo (its server, database and data dir), undone last first on success, on
 * failure, on SIGINT/SIGTERM and on a stray uncaught error alike.
 */
export function cleanUpRegistry() {
  const steps = [];
  const cleanUp = async () => {
    while (steps.length > 0) await steps.pop()().catch((error) => log(`clean-up failed: ${error.message}`));
  };
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]]) process.once(signal, () => void cleanUp().finally(() => process.exit(code)));
  // A stray error event (a dropped connection, say) must not skip the clean-up either.
  process.once("uncaughtException", (error) => {
    log(`uncaught: ${error.stack}`);
    void cleanUp().finally(() => process.exit(1));
  });
  return { add: (step) => steps.push(step), cleanUp };
}

/** A temporary data dir and a fresh database on the machine's Postgres, both removed by the registry. */
export async function freshStore(adminDatabaseUrl, registry) {
  const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-bench-"));
  registry.add(() => rm(dataDir, { recursive: true, force: true }));
  const database = await createBenchDatabase(adminDatabaseUrl);
  registry.add(() => database.drop());
  log(`database ${database.name}, data dir ${dataDir}`);
  return { dataDir, database };
}

export const run = promisify(execFile);
export const ORIGIN = "https://bench.test";
const LIMIT_OUT_OF_THE_WAY = "100000000";

export function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function ensureBuilt(root) {
  if (existsSync(join(root, "packages", "server", "dist", "cli", "main.js"))) return;
  log("packages/server/dist is missing: running `npm run build`");
  await run("npm", ["run", "build"], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
}

/** Flushes dirty buffers, so a checkpoint caused by one route does not land in the next one's run. */
export async function checkpoint(databaseUrl) {
  // Needs superuser or pg_checkpoint; without it the run simply goes on.
  await withClient(databaseUrl, (client) =>
    client.query("CHECKPOINT").catch((error) => log(`CHECKPOINT refused (${error.message}); going on`)),
  );
}

export async function countRows(databaseUrl) {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query(
      `SELECT (SELECT count(*) FROM conversations)::int AS conversations, (SELECT count(*) FROM leads)::int AS leads,
              (SELECT count(*) FROM events)::int AS events`,
    );
    return rows[0];
  });
}

export async function machineInfo(databaseUrl, redisUrl) {
  const postgres = await withClient(databaseUrl, async (client) => (await client.query("SHOW server_version")).rows[0].server_version);
  const redis = await run("redis-cli", ["-u", redisUrl, "INFO", "server"]).then(
    ({ stdout }) => /redis_version:(\S+)/.exec(stdout)?.[1] ?? "unknown",
    () => "unknown (no redis-cli)",
  );
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    freeMemoryGiB: Math.round(freemem() / 2 ** 30),
    loadAverageBeforeRuns: loadavg().map((value) => Math.round(value * 100) / 100),
    node: process.version,
    postgres,
    redis,
  };
}

/** The commit the server was built from, and whether packages/ had uncommitted changes. */
export async function sourceRevision(root) {
  const git = (args) => run("git", ["-C", root, ...args]).then(({ stdout }) => stdout.trim(), () => null);
  const commit = await git(["rev-parse", "--short", "HEAD"]);
  const changes = await git(["status", "--porcelain", "--", "packages"]);
  return { commit: commit ?? "unknown", packagesChanged: changes === null ? null : changes !== "" };
}

/** FRONTDESK_* for the server: the bench database, Redis, and every widget rate limit out of the way. */
export function serverEnvironment({ databaseUrl, poolSize, redisUrl, dataDir, port }) {
  return {
    ...process.env,
    FRONTDESK_DATABASE_URL: databaseUrl,
    FRONTDESK_DATABASE_POOL_SIZE: String(poolSize),
    FRONTDESK_REDIS_URL: redisUrl,
    FRONTDESK_DATA_DIR: dataDir,
    FRONTDESK_HOST: "127.0.0.1",
    FRONTDESK_PORT: String(port),
    FRONTDESK_LOG_LEVEL: "warn",
    FRONTDESK_JWT_SECRET: randomBytes(32).toString("hex"),
    FRONTDESK_RATE_LIMIT_PROFILE: "high",
    FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: LIMIT_OUT_OF_THE_WAY,
    FRONTDESK_RATE_LIMIT_INIT_PER_HOUR_PER_IP: "0",
    FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: LIMIT_OUT_OF_THE_WAY,
    FRONTDESK_RATE_LIMIT_LEADS_PER_MINUTE: LIMIT_OUT_OF_THE_WAY,
  };
}

/** `node bin/frontdesk serve` on `port` as a child process; resolves once GET /healthz answers 200. */
export function startServer({ root, environment, port, profileDir }) {
  return startService({ root, env: environment, port, cpuProfileDir: profileDir, healthTimeoutMs: 60_000 });
}

/** One `frontdesk admin …` command (through the server's admin socket or on the store); its JSON. */
export const adminCli = runAdmin;

/** `count` sessions started through POST /init; their tokens. */
export async function startSessions(baseUrl, agentId, count) {
  const tokens = [];
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${baseUrl}/api/v1/widget/init`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: ORIGIN },
      body: JSON.stringify({ agent_id: agentId, page_url: `${ORIGIN}/`, anon_id: `bench-session-${index}-${randomBytes(4).toString("hex")}` }),
    });
    const body = await response.json();
    if (!response.ok) throw new BenchFailure(`init for the session pool answered ${response.status}: ${JSON.stringify(body)}`);
    tokens.push(body.data.jwt);
  }
  return tokens;
}
