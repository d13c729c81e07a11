import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { migrate } from "../../src/db/migrate.js";
import { migrations } from "../../src/db/migrations/index.js";
import { openPgliteDatabase } from "../../src/db/pglite-database.js";
import { openPostgresDatabase } from "../../src/db/postgres-database.js";
import { compiledWorkerUrl } from "./compiled-worker.js";

/**
 * Migrated stores that test stores are copied from, instead of each test file paying for a new
 * store and every migration: on PGlite, initdb in WebAssembly and the migrations cost about 5 s
 * of CPU per store, a copied data directory about 1.5 s; on Postgres, CREATE DATABASE … TEMPLATE
 * skips the migrations (about 2.5 s on a busy machine). A template is made once per machine and
 * schema: its name carries a fingerprint of the migrations (and of PGlite's version), so a new or
 * changed migration makes a new template and a stale one is never used.
 */

/** The machine's Postgres 15 (with pgvector); override with FRONTDESK_TEST_POSTGRES_URL. */
export const adminPostgresUrl = process.env.FRONTDESK_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function pgliteVersion(): string {
  let directory = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"));
  while (!existsSync(join(directory, "package.json"))) directory = dirname(directory);
  return (JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { version: string }).version;
}

/** How a template is made (below): a change to it must change the fingerprint too. */
const TEMPLATE_RECIPE = 1;

/** 16 hex digits naming the schema the migrations make (and the PGlite that stores it). */
export const schemaFingerprint = createHash("sha256")
  .update(JSON.stringify({ recipe: TEMPLATE_RECIPE, pglite: pgliteVersion(), migrations }))
  .digest("hex")
  .slice(0, 16);

let pgliteTemplate: Promise<string> | null = null;

/**
 * A migrated PGlite data directory under the system's temporary directory. Made once: test
 * processes that find none each make one beside it and rename theirs into place; the first
 * rename wins and the others remove their copy.
 */
export function pgliteTemplateDir(): Promise<string> {
  pgliteTemplate ??= (async () => {
    const template = join(tmpdir(), `frontdesk-test-pglite-${schemaFingerprint}`);
    if (existsSync(join(template, "PG_VERSION"))) return template;
    const building = `${template}.building-${process.pid}-${randomBytes(4).toString("hex")}`;
    const db = await openPgliteDatabase(building, { workerUrl: compiledWorkerUrl("db/pglite-worker.js") });
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    try {
      await rename(building, template);
    } catch (error) {
      if (!existsSync(join(template, "PG_VERSION"))) throw error;
      await rm(building, { recursive: true, force: true });
    }
    return template;
  })();
  pgliteTemplate.catch(() => (pgliteTemplate = null));
  return pgliteTemplate;
}

/** Copies the migrated PGlite template to `dataDir` (which must not exist yet). */
export async function copyPgliteTemplate(dataDir: string): Promise<void> {
  const template = await pgliteTemplateDir();
  await promisify(execFile)("cp", ["-a", "--reflink=auto", template, dataDir]);
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
        await admin.query(`CREATE DATABASE ${building}`);
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        const db = await openPostgresDatabase(url.toString(), 2);
        try {
          await migrate(db);
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
