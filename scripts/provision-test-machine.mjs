#!/usr/bin/env node
// Provisions what the test suite needs on this machine; `npm test` runs it first (root `pretest`).
// Idempotent: when every leg is already there it only probes them (a connection each, no apt).
// A leg it cannot provide (not root, no apt, Postgres not installed, a failed build) is recorded as
// skipped with its reason in the leg record (node_modules/.cache/frontdesk/test-legs.json, or
// FRONTDESK_TEST_LEGS_FILE) and the script exits 0, so the suite runs what it can and its tests of
// that leg are skipped; with FRONTDESK_TEST_REQUIRE_ALL=1 a skipped leg exits 1.
// Targets: FRONTDESK_TEST_POSTGRES_URL, FRONTDESK_TEST_REDIS_URL, FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH,
// FRONTDESK_TEST_CHROMIUM_PATH, FRONTDESK_TEST_DOVECOT_PATH, FRONTDESK_TEST_HAPROXY_PATH (see scripts/test-legs/).
import { legRecordPath, requireAllLegs, writeLegRecord } from "./test-legs/leg-record.mjs";
import { legs } from "./test-legs/legs.mjs";
import { machine, redactUrl } from "./test-legs/machine.mjs";

const started = Date.now();
const requireAll = requireAllLegs();

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * Provisions a leg its probe found missing (a ready leg passes through), and words the outcome.
 * @param {import("./test-legs/legs.mjs").Leg} leg
 * @param {string} target
 * @param {import("./test-legs/legs.mjs").Probe} first
 * @returns {Promise<import("./test-legs/leg-record.mjs").LegOutcome>}
 */
async function settleLeg(leg, target, first) {
  const legStarted = Date.now();
  /** @type {string[]} */
  const actions = [];
  let outcome = first;
  if (!outcome.ready) {
    try {
      outcome = await leg.provision(target, first, { machine, did: (action) => actions.push(action) });
    } catch (error) {
      outcome = { ready: false, problem: `${first.problem}; provisioning failed unexpectedly: ${messageOf(error)}` };
    }
  }
  return {
    name: leg.name,
    target: redactUrl(target),
    status: outcome.ready ? "ready" : "skipped",
    reason: outcome.ready ? null : outcome.problem,
    actions,
    ms: Date.now() - legStarted,
  };
}

// Every leg is probed at once (the whole cost when all are there); provisioning (apt, builds) runs
// one leg after the other, in table order.
const probed = await Promise.all(
  legs.map(async (leg) => {
    const target = leg.target(process.env);
    /** @type {import("./test-legs/legs.mjs").Probe} */
    const first = await leg.probe(target).catch((error) => ({ ready: false, problem: `probing ${redactUrl(target)} failed: ${messageOf(error)}` }));
    return { leg, target, first };
  }),
);
/** @type {import("./test-legs/leg-record.mjs").LegOutcome[]} */
const outcomes = [];
for (const { leg, target, first } of probed) outcomes.push(await settleLeg(leg, target, first));

try {
  writeLegRecord({ writtenAt: new Date().toISOString(), requireAll, legs: outcomes }, legRecordPath());
} catch (error) {
  console.error(`provision-test-machine: could not write the leg record ${legRecordPath()}: ${messageOf(error)}`);
}

const skipped = outcomes.filter((outcome) => outcome.status === "skipped");
const summary = outcomes
  .map((outcome) => `${outcome.name} ${outcome.status}${outcome.actions.length > 0 ? ` (${outcome.actions.join("; ")})` : ""}`)
  .join(", ");
console.log(`provision-test-machine: ${summary} in ${Date.now() - started} ms`);
for (const outcome of skipped) {
  console.error(`provision-test-machine: SKIPPED leg ${outcome.name}: ${outcome.reason}`);
}
if (skipped.length > 0) {
  if (requireAll) {
    console.error(`provision-test-machine: FRONTDESK_TEST_REQUIRE_ALL=1 and ${skipped.length} leg(s) skipped: failing`);
    process.exit(1);
  }
  console.error("provision-test-machine: the tests of skipped legs will be skipped (FRONTDESK_TEST_REQUIRE_ALL=1 fails instead)");
}
