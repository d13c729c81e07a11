// The record of the last provisioning: which legs are ready and why the others were skipped.
// Written by scripts/provision-test-machine.mjs, read by the Vitest global setup for its banner.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * @typedef {{ name: string, target: string, status: "ready" | "skipped", reason: string | null, actions: string[], ms: number }} LegOutcome
 * @typedef {{ writtenAt: string, requireAll: boolean, legs: LegOutcome[] }} LegRecord
 */

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** FRONTDESK_TEST_LEGS_FILE, or node_modules/.cache/frontdesk/test-legs.json. */
export function legRecordPath(env = process.env) {
  return env.FRONTDESK_TEST_LEGS_FILE || join(repositoryRoot, "node_modules", ".cache", "frontdesk", "test-legs.json");
}

/** @param {LegRecord} record @param {string} path */
export function writeLegRecord(record, path) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(temporary, path);
}

/** @param {string} path @returns {LegRecord | null} */
export function readLegRecord(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

/** FRONTDESK_TEST_REQUIRE_ALL=1 (or `true`) turns a skipped leg into a failure. */
export function requireAllLegs(env = process.env) {
  return env.FRONTDESK_TEST_REQUIRE_ALL === "1" || env.FRONTDESK_TEST_REQUIRE_ALL === "true";
}
