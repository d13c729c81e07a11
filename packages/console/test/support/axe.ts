import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** axe-core on the whole page: the ids of serious and critical violations (evaluated by the driver, which the page's CSP does not govern). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const source = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact?: string | null; nodes: { target: unknown }[] }[] }> } }).axe;
    const results = await axe.run(document, { resultTypes: ["violations"] });
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id} ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
  });
}
