import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium, provided by the `chromium` test leg (scripts/test-legs/chromium-leg.mjs); never downloaded. */
export const CHROMIUM_PATH = process.env.FRONTDESK_TEST_CHROMIUM_PATH || "/usr/bin/chromium";

/** A headless Chromium driven by playwright-core. Its sandbox needs a user namespace that root in a container lacks. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, chromiumSandbox: process.getuid?.() !== 0 });
}
