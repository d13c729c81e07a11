import { chromium, type Browser, type BrowserContext } from "playwright-core";

/** Debian's Chromium, provided by the `chromium` test leg (scripts/test-legs/chromium-leg.mjs); never downloaded. */
export const CHROMIUM_PATH = process.env.FRONTDESK_TEST_CHROMIUM_PATH || "/usr/bin/chromium";

/** The test worker process's one Chromium, launched by the first file that asks (Vitest runs a worker's files one after another). */
let shared: Promise<Browser> | null = null;

function sharedChromium(): Promise<Browser> {
  const running = shared;
  if (running) {
    return running.then((browser) => {
      if (browser.isConnected()) return browser;
      shared = null;
      return sharedChromium();
    });
  }
  // Its sandbox needs a user namespace that root in a container lacks.
  const launched = chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, chromiumSandbox: process.getuid?.() !== 0 });
  shared = launched;
  launched.catch(() => (shared = null));
  return launched;
}

/**
 * A headless Chromium driven by playwright-core, for one test file: the worker's shared browser,
 * whose `close()` closes the contexts this file opened and leaves the browser to the next file
 * (a launch and close cost about 0.4 s of CPU; 36 files launched one each).
 */
export async function launchChromium(): Promise<Browser> {
  const browser = await sharedChromium();
  const contexts = new Set<BrowserContext>();
  return new Proxy(browser, {
    get(target, property, receiver) {
      if (property === "newContext") {
        return async (...options: Parameters<Browser["newContext"]>) => {
          const context = await target.newContext(...options);
          contexts.add(context);
          context.once("close", () => contexts.delete(context));
          return context;
        };
      }
      if (property === "close") {
        return async () => {
          await Promise.all([...contexts].map((context) => context.close().catch(() => undefined)));
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
