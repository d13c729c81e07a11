import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** axe-core on the widget's element (its shadow root included): the ids of serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  const source = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: source });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Element, options: object): Promise<{ violations: { id: string; impact?: string | null }[] }> } }).axe;
    // After the panel's fade-in (the typing dots' endless pulse aside).
    const finite = document.querySelector("frontdesk-widget")!.shadowRoot!.getAnimations().filter((animation) => animation.effect?.getTiming().iterations !== Infinity);
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)));
    const results = await axe.run(document.querySelector("frontdesk-widget")!, { resultTypes: ["violations"] });
    return results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical").map((violation) => violation.id);
  });
}
