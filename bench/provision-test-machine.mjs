#!/usr/bin/env node
// What `npm test`'s first step costs: `node bench/provision-test-machine.mjs` (docs/benchmarks.md,
// section "Test provisioning").
//
// Runs scripts/provision-test-machine.mjs BENCH_RUNS times on this machine as it is (every leg already
// there: it only probes) and prints the wall time of the whole process (Node's start included) and the
// script's own figure. Its leg record goes to a temporary file, never the suite's.
// BENCH_PGVECTOR_BUILD=1 also times the pgvector build the script does on a fresh machine (apt-get
// update, install of the build packages, apt-get source, make), installing into a temporary DESTDIR so
// that the machine's pgvector is left as it is. Needs root and apt; packages already installed make the
// install step a no-op, so this is the lower bound of a fresh machine's figure.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPgvector } from "../scripts/test-legs/pgvector-build.mjs";
import { machine } from "../scripts/test-legs/machine.mjs";

const SCRIPT = fileURLToPath(new URL("../scripts/provision-test-machine.mjs", import.meta.url));
const runs = Number(process.env.BENCH_RUNS ?? 20);
const scratch = await mkdtemp(join(tmpdir(), "frontdesk-bench-provision-"));
const percentile = (/** @type {number[]} */ values, /** @type {number} */ p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] ?? NaN;

/** @type {number[]} */
const wall = [];
/** @type {number[]} */
const inScript = [];
for (let run = 0; run < runs; run += 1) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [SCRIPT], {
    env: { ...process.env, FRONTDESK_TEST_LEGS_FILE: join(scratch, "test-legs.json") },
    encoding: "utf8",
  });
  wall.push(Number(process.hrtime.bigint() - started) / 1e6);
  if (result.status !== 0 || !/ready.* in \d+ ms/.test(result.stdout) || /skipped/.test(result.stdout)) {
    console.error(`run ${run + 1}: a leg is not ready on this machine; this bench measures the all-present case\n${result.stdout}${result.stderr}`);
    process.exit(1);
  }
  inScript.push(Number(/in (\d+) ms/.exec(result.stdout)?.[1]));
}
const ms = (/** @type {number} */ value) => `${Math.round(value)} ms`;
console.log(`provision-test-machine with every leg present, ${runs} runs:`);
console.log(`  whole process (node start included): median ${ms(percentile(wall, 50))}, p90 ${ms(percentile(wall, 90))}, max ${ms(Math.max(...wall))}`);
console.log(`  the script's own probing:            median ${ms(percentile(inScript, 50))}, p90 ${ms(percentile(inScript, 90))}, max ${ms(Math.max(...inScript))}`);
const bare = spawnSync(process.execPath, ["-e", ""]);
if (bare.status === 0) {
  const started = process.hrtime.bigint();
  spawnSync(process.execPath, ["-e", ""]);
  console.log(`  (an empty \`node -e ""\` takes ${ms(Number(process.hrtime.bigint() - started) / 1e6)} here)`);
}

if (process.env.BENCH_PGVECTOR_BUILD === "1") {
  const { rows } = await import("pg").then(async ({ default: pg }) => {
    const client = new pg.Client({ connectionString: process.env.FRONTDESK_TEST_POSTGRES_URL || "postgres://postgres@127.0.0.1:5432/postgres" });
    await client.connect();
    try {
      return await client.query("SELECT current_setting('server_version_num')::int / 10000 AS major");
    } finally {
      await client.end();
    }
  });
  const major = Number(rows[0]?.major);
  const destDir = join(scratch, "destdir");
  const started = Date.now();
  const steps = await buildPgvector(machine, major, { install: false, destDir });
  console.log(`pgvector build for Postgres ${major} (staged in a temporary DESTDIR): ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const [step, stepMs] of Object.entries(steps)) console.log(`  ${step.padEnd(16)} ${(stepMs / 1000).toFixed(1)} s`);
}
await rm(scratch, { recursive: true, force: true });
