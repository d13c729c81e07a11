import { readFile, readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * `npm test` passes on a machine without Postgres or Redis only if every test that needs one is
 * skipped with its leg. A test file that opens the machine's Postgres or Redis without declaring the
 * leg would fail there instead; this finds such files (in every package's test folder).
 */
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

/** Forms that open a store per kind without declaring the postgres leg. */
const UNDECLARED_STORE_LOOP = /describe\.each(<StoreKind>)?\((storeKinds|\[\s*"pglite",\s*"postgres"\s*\])\)/;
/** Uses of the machine's Postgres or Redis that need a leg declared in the same file. */
const LEG_USES = [/createTestDatabase\("postgres"\)/, /createEmptyPostgresDatabase\(/, /ThrowawayRedis\.start\(/, /FRONTDESK_TEST_REDIS_URL/];
/** Uses of the machine's Chromium (through playwright-core), which need describeNeeding("chromium") in the same file. */
const BROWSER_USES = [/from "playwright-core"/, /launchChromium\(/];
const CHROMIUM_DECLARATION = /describeNeeding\([^)]*"chromium"/;
const LEG_DECLARATIONS = /describeEachStore\(|describeNeeding\(|describeEachNeeding\(/;

async function testFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
      return entry.name.endsWith(".test.ts") ? [path] : [];
    }),
  );
  return nested.flat();
}

describe("test legs declared", () => {
  it("happy: every test file using the machine's Postgres, Redis or Chromium declares the leg (describeEachStore, describeNeeding)", async () => {
    const packages = await readdir(join(ROOT, "packages"));
    const files = (await Promise.all(packages.map((name) => testFiles(join(ROOT, "packages", name, "test")).catch(() => [])))).flat();
    const offenders: string[] = [];
    for (const file of files) {
      if (file.includes(`${join("test", "provisioning")}`)) continue; // these tests point the legs at closed ports on purpose
      const text = await readFile(file, "utf8");
      const path = relative(ROOT, file);
      if (UNDECLARED_STORE_LOOP.test(text)) offenders.push(`${path}: describe.each over the stores; use describeEachStore (support/test-database.ts)`);
      else if (LEG_USES.some((use) => use.test(text)) && !LEG_DECLARATIONS.test(text)) {
        offenders.push(`${path}: uses the machine's Postgres or Redis; wrap it in describeNeeding("postgres" | "redis") (support/test-legs.ts)`);
      }
      if (BROWSER_USES.some((use) => use.test(text)) && !CHROMIUM_DECLARATION.test(text)) {
        offenders.push(`${path}: drives a browser; wrap it in describeNeeding("chromium") (support/test-legs.ts)`);
      }
    }
    expect(files.length).toBeGreaterThan(20);
    expect(offenders).toEqual([]);
  });

  it("error: a browser test without the chromium leg is caught, and one that declares it is not", () => {
    const undeclared = `import { chromium } from "playwright-core";\ndescribe("widget", () => {});`;
    const declared = `const browser = await launchChromium();\ndescribeNeeding("chromium")("widget", () => {});`;
    const flagged = (text: string) => BROWSER_USES.some((use) => use.test(text)) && !CHROMIUM_DECLARATION.test(text);
    expect(flagged(undeclared)).toBe(true);
    expect(flagged(declared)).toBe(false);
    expect(flagged(`launchChromium();\ndescribeNeeding("redis")("x", () => {});`)).toBe(true);
  });
});
