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
/**
 * Uses of the machine's Chromium (through playwright-core), which need the leg of the build they launch
 * declared in the same file: describeNeeding("chromium-headless-shell") for launchChromium() (the
 * shell), describeNeeding("chromium") for launchChromium("browser") or playwright-core's own launcher.
 */
const BROWSER_USES = [/from "playwright-core"/, /launchChromium\(/];
const WHOLE_BROWSER_USES = [/import \{[^}]*\bchromium\b[^}]*\} from "playwright-core"/, /launchChromium\("browser"\)/];
const CHROMIUM_DECLARATION = /describeNeeding\([^)]*"chromium"/;
const HEADLESS_SHELL_DECLARATION = /describeNeeding\([^)]*"chromium-headless-shell"/;
/** Why a file's browser use is not covered by its declarations, or null. */
function undeclaredBrowser(text: string): string | null {
  if (WHOLE_BROWSER_USES.some((use) => use.test(text)) && !CHROMIUM_DECLARATION.test(text)) return 'drives the whole browser; wrap it in describeNeeding("chromium")';
  if (/launchChromium\((\)|"headless-shell"\))/.test(text) && !HEADLESS_SHELL_DECLARATION.test(text)) return 'drives the headless shell; wrap it in describeNeeding("chromium-headless-shell")';
  return null;
}
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
      const browser = BROWSER_USES.some((use) => use.test(text)) ? undeclaredBrowser(text) : null;
      if (browser) offenders.push(`${path}: ${browser} (support/test-legs.ts)`);
    }
    expect(files.length).toBeGreaterThan(20);
    expect(offenders).toEqual([]);
  });

  it("error: a browser test without the leg of the build it launches is caught, and one that declares it is not", () => {
    const flagged = (text: string) => BROWSER_USES.some((use) => use.test(text)) && undeclaredBrowser(text) !== null;
    expect(flagged(`import { chromium } from "playwright-core";\ndescribe("widget", () => {});`)).toBe(true);
    expect(flagged(`import { chromium } from "playwright-core";\ndescribeNeeding("chromium")("widget", () => {});`)).toBe(false);
    expect(flagged(`const browser = await launchChromium();\ndescribeNeeding("chromium-headless-shell")("widget", () => {});`)).toBe(false);
    expect(flagged(`const browser = await launchChromium();\ndescribeNeeding("chromium")("widget", () => {});`)).toBe(true);
    expect(flagged(`const browser = await launchChromium("browser");\ndescribeNeeding("chromium")("push", () => {});`)).toBe(false);
    expect(flagged(`const browser = await launchChromium("browser");\ndescribeNeeding("chromium-headless-shell")("push", () => {});`)).toBe(true);
    expect(flagged(`launchChromium();\ndescribeNeeding("redis")("x", () => {});`)).toBe(true);
    expect(flagged(`launchChromium("headless-shell");\ndescribeNeeding("chromium")("x", () => {});`)).toBe(true);
  });
});
