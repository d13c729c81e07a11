// What the benchmarks share: a free port, the admin CLI, a throw-away Postgres database, and
// waiting for `frontdesk serve` to be healthy.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

/** A benchmark that cannot go on (the message says why). */
export class BenchFailure extends Error {}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function waitForHealth(baseUrl, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new BenchFailure(`frontdesk serve exited with code ${child.exitCode} before it was healthy`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return response.json();
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new BenchFailure(`frontdesk serve did not become healthy within ${timeoutMs / 1000}s`);
}

export async function runAdmin(root, env, args) {
  try {
    const { stdout } = await run(process.execPath, [join(root, "bin", "frontdesk"), "admin", ...args], { cwd: root, env });
    return JSON.parse(stdout);
  } catch (error) {
    throw new BenchFailure(`frontdesk admin ${args.join(" ")} failed: ${error.stderr ?? error.message}`);
  }
}

export async function createBenchDatabase(adminUrl) {
  const name = `frontdesk_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
