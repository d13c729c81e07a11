import { join } from "node:path";
import type { Page } from "playwright-core";
import { ARTIFACTS } from "./artifacts.js";

/**
 * A screenshot of a whole screen whose content scrolls inside an element (`scroller`), not the
 * page: the viewport is grown to the content's height (at most 4,000 px), then put back.
 */
export async function screenshotWhole(page: Page, scroller: string, name: string): Promise<void> {
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const height = await page.locator(scroller).evaluate((element) => element.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.max(size.height, Math.min(height + 40, 4000)) });
  await page.screenshot({ path: join(ARTIFACTS, name) });
  await page.setViewportSize(size);
}
