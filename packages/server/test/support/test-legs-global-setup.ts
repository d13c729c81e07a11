import type { TestProject } from "vitest/node";
import { legRecordPath, readLegRecord, requireAllLegs } from "../../../../scripts/test-legs/leg-record.mjs";
import { legs } from "../../../../scripts/test-legs/legs.mjs";
import { redactUrl } from "../../../../scripts/test-legs/machine.mjs";
import type { TestLegState } from "./test-legs.js";

/** Probes every leg (a connection each), gives the result to the tests, and at the end of the run
 * prints once which legs were skipped and why; with FRONTDESK_TEST_REQUIRE_ALL=1 that fails the run. */
export default async function setup(project: TestProject) {
  const record = readLegRecord(legRecordPath());
  const states: Record<string, TestLegState> = {};
  await Promise.all(
    legs.map(async (leg) => {
      const target = leg.target(process.env);
      const probe = await leg.probe(target).catch((error: unknown) => ({ ready: false, problem: String(error) }));
      if (probe.ready) {
        states[leg.name] = { status: "ready", reason: null, target: redactUrl(target) };
        return;
      }
      // The provisioning script's reason says why it could not provide the leg; use it when it still describes this target.
      const recorded = record?.legs.find((outcome) => outcome.name === leg.name && outcome.target === redactUrl(target));
      const reason =
        recorded?.status === "skipped" && recorded.reason?.startsWith(probe.problem)
          ? recorded.reason
          : `${probe.problem} (not provisioned: \`node scripts/provision-test-machine.mjs\` provides it where it can)`;
      states[leg.name] = { status: "skipped", reason, target: redactUrl(target) };
    }),
  );
  project.provide("testLegs", states);

  return () => {
    const skipped = Object.entries(states).filter(([, state]) => state.status === "skipped");
    if (skipped.length === 0) return;
    const requireAll = requireAllLegs();
    const rule = "=".repeat(100);
    const lines = [
      "",
      rule,
      `  TEST LEGS SKIPPED: the tests needing ${skipped.map(([name]) => name).join(" and ")} did not run (counted as skipped above)`,
      ...skipped.map(([name, state]) => `  - ${name}: ${state.reason}`),
      "  Provide them: run `node scripts/provision-test-machine.mjs` as root on a Debian machine, or point",
      "  FRONTDESK_TEST_POSTGRES_URL / FRONTDESK_TEST_REDIS_URL at servers that have them and",
      "  FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH at Chromium's headless shell, FRONTDESK_TEST_CHROMIUM_PATH",
      "  at a Chromium, FRONTDESK_TEST_DOVECOT_PATH at a Dovecot, FRONTDESK_TEST_HAPROXY_PATH at an HAProxy.",
      requireAll
        ? "  FRONTDESK_TEST_REQUIRE_ALL=1: a skipped leg fails this run."
        : "  FRONTDESK_TEST_REQUIRE_ALL=1 turns a skipped leg into a failure (as .ci/run does).",
      rule,
      "",
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    if (requireAll) process.exitCode = 1;
  };
}
