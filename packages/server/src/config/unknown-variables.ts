import { ENV_PREFIX, envSchema } from "./env-schema.js";

/**
 * Variables with our prefix that the service does not read on purpose: the test suite's own
 * settings (`FRONTDESK_TEST_POSTGRES_URL`, `FRONTDESK_TEST_REQUIRE_ALL` …) share the environment
 * with the processes the tests start.
 */
const NOT_SETTINGS = [`${ENV_PREFIX}TEST_`];

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * neighbours (`PROT` → `PORT`) each count one. Written here rather than taken from a package: it
 * runs once per start over a few dozen short names.
 */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i]!;
      const above = rows[i - 1]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}

/** One line per `FRONTDESK_*` variable the service does not know (a typo is otherwise silent), naming the closest known one. */
export function unknownVariableWarnings(environment: Record<string, string | undefined>): string[] {
  const known = Object.keys(envSchema.shape).map((name) => `${ENV_PREFIX}${name}`);
  return Object.keys(environment)
    .filter((name) => name.startsWith(ENV_PREFIX) && !known.includes(name) && !NOT_SETTINGS.some((prefix) => name.startsWith(prefix)))
    .sort()
    .map((name) => {
      const [closest] = known
        .map((candidate) => ({ candidate, distance: editDistance(name, candidate) }))
        .sort((x, y) => x.distance - y.distance || x.candidate.localeCompare(y.candidate));
      const suggestion = closest && closest.distance <= Math.max(2, Math.floor((name.length - ENV_PREFIX.length) / 3)) ? `; did you mean ${closest.candidate}?` : " (docs/configuration.md lists the settings)";
      return `${name} is not a Frontdesk setting and is ignored${suggestion}`;
    });
}
