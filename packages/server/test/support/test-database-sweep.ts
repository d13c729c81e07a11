import { randomBytes } from "node:crypto";
import pg from "pg";
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { adminPostgresUrl, testStoreDirectory } from "./store-templates.js";

/**
 * Names this run's test databases, so that its teardown can drop the ones a worker left (a spare
 * made ahead, a drop cut short by the worker's end) without touching another run's on the same
 * Postgres. The global setup sets the run's id before the workers start; a file run without it
 * (an editor's single test) gets one per process.
 */
const RUN_VARIABLE = "FRONTDESK_TEST_RUN_ID";
let processRunId: string | null = null;

export function testDatabasePrefix(): string {
  const runId = process.env[RUN_VARIABLE] ?? (processRunId ??= randomBytes(4).toString("hex"));
  return `frontdesk_test_${runId}_`;
}

/** The start of this run's PGlite test stores' directories (in store-templates.ts' testStoreDirectory, memory when it can be). */
export function testStorePrefix(): string {
  return `frontdesk-test-store-${testDatabasePrefix().slice("frontdesk_test_".length)}`;
}

/** Removes every PGlite test store of this run that is left (a file cut short): in memory, they would hold it until the machine restarts. */
export async function sweepRunStores(): Promise<void> {
  const prefix = testStorePrefix();
  for (const name of await readdir(testStoreDirectory)) {
    if (name.startsWith(prefix)) await rm(join(testStoreDirectory, name), { recursive: true, force: true });
  }
}

/** Gives the run its id (the global setup, before any worker starts). */
export function startTestDatabaseRun(): void {
  process.env[RUN_VARIABLE] ??= randomBytes(4).toString("hex");
}

export async function dropPostgresDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminPostgresUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/** Drops every database of this run that is left (the run's teardown, after the workers end). */
export async function sweepRunDatabases(): Promise<void> {
  const admin = new pg.Client({ connectionString: adminPostgresUrl });
  await admin.connect();
  try {
    const prefix = testDatabasePrefix().replaceAll("_", "\\_");
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [`${prefix}%`]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
