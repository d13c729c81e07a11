import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { accessSync, constants, existsSync, readFileSync, statfsSync } from "node:fs";
import { readdir, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import type { Database } from "../../src/db/database.js";
import { migrate } from "../../src/db/migrate.js";
import { migrations } from "../../src/db/migrations/index.js";
import { openPgliteDatabase } from "../../src/db/pglite-database.js";
import { openPostgresDatabase } from "../../src/db/postgres-database.js";
import { jobCatalog } from "../../src/jobs/job-catalog.js";
import { startJobQueue } from "../../src/jobs/job-queue.js";
import { compiledWorkerUrl } from "./compiled-worker.js";

/**
 * Stores that test stores are copied from, instead of each test file paying for a new store and
 * every migration: on PGlite, initdb in WebAssembly and the migrations cost about 5.5 s of CPU per
 * store, a copied data directory about 1 s (`cp -a` 0.2 s, the open 0.8 s); on Postgres,
 * CREATE DATABASE … TEMPLATE skips the migrations (2.7 s on a busy machine). A template is made once
 * per machine and schema: its name carries a fingerprint of the migrations (and of PGlite's
 * version), so a new or changed migration makes a new template and a stale one is never used
 * (old ones stay until removed: `/tmp/frontdesk-test-pglite-*`, `frontdesk_test_template_*`).
 */

/** The machine's Postgres 15 (with pgvector); override with FRONTDESK_TEST_POSTGRES_URL. */
export const adminPostgresUrl = process.env.FRONTDESK_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * What a test database is made with: `CREATE DATABASE name [TEMPLATE …]`, then commits that do not
 * wait for the WAL's flush to disk. A test never outlives a crash of the machine's Postgres, and on
 * this machine's disk a commit's flush costs about 6 ms (0.4 ms without it, pgbench, 2,000 one-row
 * commits), time every request and job of a test on Postgres would spend waiting. Row locks,
 * isolation and what a commit makes visible are unchanged.
 */
export async function createTestPostgresDatabase(admin: pg.Client, name: string, template: string | null = null): Promise<void> {
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
}

function pgliteVersion(): string {
  let directory = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  while (!existsSync(join(directory, "package.json"))) directory = dirname(directory);
  return (JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { version: string }).version;
}

/**
 * Where the tests' PGlite stores live: FRONTDESK_TEST_STORE_DIR, else a memory file system
 * (/dev/shm) when it has room, else the system's temporary directory. A test store is a copy of
 * a 41 MB template; on ext4 under load a copy took 0.3-1.7 s and 0.1-0.6 s of system time, in
 * memory 0.24-0.35 s and 0.05 s, and the store's writes never reach a disk.
 */
export const testStoreDirectory: string = (() => {
  const configured = process.env.FRONTDESK_TEST_STORE_DIR;
  if (configured) return configured;
  try {
    const memory = "/dev/shm";
    accessSync(memory, constants.W_OK);
    const { bavail, bsize } = statfsSync(memory);
    if (bavail * bsize >= 2 * 1024 ** 3) return memory;
  } catch {
    // no memory file system here
  }
  return tmpdir();
})();

/** How a template is made (below): a change to it must change the fingerprint too. */
const TEMPLATE_RECIPE = 2;

/** The retry policy of the test apps' job queues (test-app.ts): short, so that a retried job runs within a test. */
export const TEST_JOB_RETRY = { retryLimit: 1, retryDelaySeconds: 1 } as const;

/**
 * The migrations, then pg-boss's schema and a queue per job with the test apps' policy: a job queue
 * starting on a copy then only reads them (a table per queue made anew in every test store cost
 * about 0.4 s of CPU on PGlite and a second on Postgres).
 */
async function prepareTemplate(db: Database): Promise<void> {
  await migrate(db);
  const jobs = await startJobQueue(db, { retry: TEST_JOB_RETRY });
  await jobs.stop();
}

/** 16 hex digits naming the schema the migrations make (and the PGlite that stores it). */
export const schemaFingerprint = createHash("sha256")
  .update(JSON.stringify({ recipe: TEMPLATE_RECIPE, pglite: pgliteVersion(), migrations, jobs: Object.entries(jobCatalog).map(([name, job]) => [name, job.retry]) }))
  .digest("hex")
  .slice(0, 16);

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the builds of `template` (and their pid files) left by test processes that died while making it. */
async function removeAbandonedBuilds(template: string): Promise<void> {
  const prefix = `${basename(template)}.building-`;
  for (const name of await readdir(dirname(template))) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length).split("-")[0]);
    if (Number.isInteger(pid) && pid > 0 && !isRunning(pid)) await rm(join(dirname(template), name), { recursive: true, force: true });
  }
}

/** A template's stage: a new store (initdb only), or one with every migration applied. */
export type TemplateStage = "empty" | "migrated";

const pgliteTemplates = new Map<TemplateStage, Promise<string>>();

/**
 * A PGlite data directory under the system's temporary directory, at `stage`. Made once: test
 * processes that find none each make one beside it and rename theirs into place; the first
 * rename wins and the others remove their copy.
 */
export function pgliteTemplateDir(stage: TemplateStage = "migrated"): Promise<string> {
  let made = pgliteTemplates.get(stage);
  if (made) return made;
  made = (async () => {
    const template = join(testStoreDirectory, `frontdesk-test-pglite-${stage === "empty" ? "empty-" : ""}${schemaFingerprint}`);
    if (existsSync(join(template, "PG_VERSION"))) return template;
    await removeAbandonedBuilds(template);
    const building = `${template}.building-${process.pid}-${randomBytes(4).toString("hex")}`;
    try {
      // The migrated template starts as a copy of the empty one (one initdb for both).
      if (stage === "migrated") await copyDirectory(await pgliteTemplateDir("empty"), building);
      const db = await openPgliteDatabase(building, { workerUrl: compiledWorkerUrl("db/pglite-worker.js") });
      try {
        if (stage === "migrated") await prepareTemplate(db);
      } finally {
        await db.close();
      }
    } catch (error) {
      await rm(building, { recursive: true, force: true });
      throw error;
    }
    try {
      await rename(building, template);
    } catch (error) {
      if (!existsSync(join(template, "PG_VERSION"))) throw error;
      await rm(building, { recursive: true, force: true });
    }
    return template;
  })();
  made.catch(() => pgliteTemplates.delete(stage));
  pgliteTemplates.set(stage, made);
  return made;
}

/** `cp -a`: on a data directory's thousand files, a seventh of the CPU of Node's fs.cp. */
async function copyDirectory(from: string, to: string): Promise<void> {
  await promisify(execFile)("cp", ["-a", "--reflink=auto", from, to]);
}

/** Copies the PGlite template of `stage` to `dataDir` (which must not exist yet). */
export async function copyPgliteTemplate(dataDir: string, stage: TemplateStage = "migrated"): Promise<void> {
  await copyDirectory(await pgliteTemplateDir(stage), dataDir);
}

/** Where the template databases' builds take turns, on the machine's Postgres. */
const TEMPLATE_LOCK = 7_263_554_170;

let postgresTemplate: Promise<string> | null = null;

/**
 * A migrated database on the machine's Postgres, closed to connections (a template must have
 * none while it is copied). Made under an advisory lock, once per schema.
 */
export function postgresTemplateDatabase(adminUrl = adminPostgresUrl): Promise<string> {
  postgresTemplate ??= (async () => {
    const template = `frontdesk_test_template_${schemaFingerprint}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK]);
      const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
      if (!rowCount) {
        const building = `${template}_building`;
        await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await createTestPostgresDatabase(admin, building);
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        const db = await openPostgresDatabase(url.toString(), 2);
        try {
          await prepareTemplate(db);
        } finally {
          await db.close();
        }
        await admin.query(`ALTER DATABASE ${building} RENAME TO ${template}`);
        await admin.query(`ALTER DATABASE ${template} WITH ALLOW_CONNECTIONS false`);
      }
    } finally {
      await admin.end();
    }
    return template;
  })();
  postgresTemplate.catch(() => (postgresTemplate = null));
  return postgresTemplate;
}
