import { chromium, type Browser, type BrowserContext } from "playwright-core";

/**
 * Which of Debian's Chromium builds a file drives (scripts/test-legs/chromium-leg.mjs; never downloaded):
 * - `headless-shell`, the `chromium-headless-shell` leg: Chromium's headless-only build, the same
 *   Blink; a browser test file costs the machine about a third less CPU than with the whole browser.
 *   Every browser test unless it needs more.
 * - `browser`, the `chromium` leg: the whole browser, for what the shell lacks (it denies
 *   notifications and has no push messaging).
 */
export type ChromiumBuild = "headless-shell" | "browser";

const EXECUTABLES: Record<ChromiumBuild, string> = {
  "headless-shell": process.env.FRONTDESK_TEST_CHROMIUM_HEADLESS_SHELL_PATH || "/usr/lib/chromium/chromium-headless-shell",
  browser: process.env.FRONTDESK_TEST_CHROMIUM_PATH || "/usr/bin/chromium",
};

/** The test worker process's one Chromium of each build, launched by the first file that asks (Vitest runs a worker's files one after another). */
const shared = new Map<ChromiumBuild, Promise<Browser>>();

function sharedChromium(build: ChromiumBuild): Promise<Browser> {
  const running = shared.get(build);
  if (running) {
    return running.then((browser) => {
      if (browser.isConnected()) return browser;
      shared.delete(build);
      return sharedChromium(build);
    });
  }
  // Its sandbox needs a user namespace that root in a container lacks.
  const launched = chromium.launch({ executablePath: EXECUTABLES[build], headless: true, chromiumSandbox: process.getuid?.() !== 0 });
  shared.set(build, launched);
  launched.catch(() => shared.delete(build));
  return launched;
}

/**
 * A headless Chromium driven by playwright-core, for one test file: the worker's shared browser of `build`,
 * whose `close()` closes the contexts this file opened and leaves the browser to the next file
 * (a launch and close cost about 0.4 s of CPU; 36 files launched one each).
 */
export async function launchChromium(build: ChromiumBuild = "headless-shell"): Promise<Browser> {
  const browser = await sharedChromium(build);
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
