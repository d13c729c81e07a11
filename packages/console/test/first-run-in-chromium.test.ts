import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { freePort } from "../../server/test/cli/cli-process.js";
import { frontdesk, type WatchedProcess } from "../../server/test/cli/frontdesk-process.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { seriousViolations } from "./support/axe.js";
import { SmallSite } from "./support/small-site.js";
import { poll } from "./support/console-browser.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */

const PASSWORD = "handlebar-tandem-42";

/**
 * The first run as a newcomer lives it: `frontdesk serve` on an empty data dir prints a setup link;
 * in Chromium the link creates the admin, the first agent for a site on loopback, pushes the site's
 * sitemap and shows it indexed live, and gives the script tag, which pasted into the site's page
 * shows the widget's launcher there.
 */
describeNeeding("chromium-headless-shell")("the first run, in Chromium, from an empty data dir", () => {
  let dataDir: string;
  let serve: WatchedProcess;
  let serviceUrl: string;
  let setupUrl: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const site = new SmallSite();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "frontdesk-first-run-"));
    const port = await freePort();
    serviceUrl = `http://127.0.0.1:${port}`;
    await site.start();
    serve = frontdesk(
      {
        FRONTDESK_DATA_DIR: dataDir,
        FRONTDESK_PUBLIC_URL: serviceUrl,
        // The request log (info) is read: the setup token must never be in it.
        FRONTDESK_LOG_LEVEL: "info",
        FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
        // The site is on loopback, which the crawler refuses unless told otherwise.
        FRONTDESK_CRAWLER_ALLOW_PRIVATE_NETWORKS: "true",
        FRONTDESK_WORKER_CONCURRENCY: "2",
      },
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
    );
    await serve.waitFor(/\/console\/setup#token=\S+/, 90_000);
    setupUrl = /(http:\/\/[^\s"]+\/console\/setup#token=[\w-]+)/.exec(serve.output())![1]!; // from the structured log line (no box: not a terminal)
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (serve && serve.child.exitCode === null) {
      serve.child.kill("SIGTERM");
      await serve.exit(30_000);
    }
    await site.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("happy: the setup link creates the admin (the password policy's words beside the field), the agent, pushes the sitemap with live progress to indexed, copies the script tag, and the pasted tag shows the launcher on the site; the spent link then says so; no serious axe violation", async () => {
    expect(setupUrl.startsWith(`${serviceUrl}/console/setup#token=`)).toBe(true);
    const token = setupUrl.split("#token=")[1]!;
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: serviceUrl });
    page = await context.newPage();
    // Every URL the browser asks for: the token must be in none of them (it rides in the fragment and in request bodies).
    const requestedUrls: string[] = [];
    page.on("request", (request) => requestedUrls.push(request.url()));
    const pageErrors: string[] = [];
    const policyViolations: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(String(error)));
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "first-run-failure.png") });
      console.error("page errors:", pageErrors, "at", page.url(), "\nserve:", serve.output().slice(-4000));
    });

    // 1. The admin: a common password is refused, the server's words beside the field.
    await page.goto(setupUrl);
    await poll(() => page.getByRole("heading", { name: "Create your admin account" }).isVisible()).toBe(true);
    await page.getByLabel("Your name").fill("Ana Admin");
    await page.getByLabel("E-mail").fill("ana@acme-bikes.test");
    await page.getByLabel("Password", { exact: true }).fill("password");
    await page.getByLabel("Workspace name (optional)").fill("Acme Bikes");
    await page.getByRole("button", { name: "Create the account" }).click();
    const passwordError = page.locator("#setup-password-error");
    await poll(() => passwordError.textContent()).toMatch(/at least 10 characters/);
    expect(await page.getByLabel("Password", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await page.screenshot({ path: join(ARTIFACTS, "first-run-account.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create the account" }).click();

    // 2. The agent, for the site's address; the token has left the address bar.
    await poll(() => page.getByRole("heading", { name: "Create your first agent" }).isVisible()).toBe(true);
    expect(page.url()).toBe(`${serviceUrl}/console/setup/agent`);
    // The token was sent in no URL, and no line of the service's log but its announcement holds it.
    expect(requestedUrls.length).toBeGreaterThan(3);
    expect(requestedUrls.filter((url) => url.includes(token))).toEqual([]);
    const loggedWithToken = serve
      .output()
      .split("\n")
      .filter((line) => line.includes(token) && !line.includes('"event":"first_run_setup"'));
    expect(loggedWithToken).toEqual([]);
    expect(serve.output()).toMatch(/"path":"\/console\/setup"/);
    await page.getByLabel("Agent name").fill("Acme help");
    await page.getByLabel("Your site's address").fill(`${site.origin}/`);
    await page.screenshot({ path: join(ARTIFACTS, "first-run-agent.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Create the agent" }).click();

    // 3. The sitemap, offered at the site's origin; its progress reaches indexed without a reload.
    await poll(() => page.getByRole("heading", { name: "Teach it your site" }).isVisible()).toBe(true);
    const sitemap = page.getByLabel("Sitemap address");
    await poll(() => sitemap.inputValue()).toBe(`${site.origin}/sitemap.xml`);
    await page.getByRole("button", { name: "Push the sitemap" }).click();
    const source = page.getByRole("list", { name: "Sources" }).getByRole("listitem");
    await poll(() => source.textContent(), 90_000).toContain("Indexed: 2 of 2 pages");
    expect(await source.getAttribute("data-status")).toBe("indexed");
    await page.screenshot({ path: join(ARTIFACTS, "first-run-knowledge.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Next: install the widget" }).click();

    // 4. The script tag, copied with the button, and the widget in the preview.
    await poll(() => page.getByRole("heading", { name: "Put it on your site" }).isVisible()).toBe(true);
    const tag = page.getByLabel("Script tag");
    await poll(() => tag.inputValue()).toMatch(/^<script src="http:\/\/127\.0\.0\.1:\d+\/widget\.js" data-agent-id="agt_[^"]+" async><\/script>$/);
    await page.getByRole("button", { name: "Copy the script tag" }).click();
    await poll(() => page.getByText("Copied.").isVisible()).toBe(true);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await tag.inputValue());
    const preview = page.frameLocator('iframe[title="Widget preview"]');
    await poll(() => preview.locator("frontdesk-widget .head").isVisible(), 30_000).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, "first-run-install.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // The site owner pastes it into the site: a visitor sees the launcher there.
    site.pasted = copied;
    const visitor = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await visitor.goto(`${site.origin}/`);
    await poll(() => visitor.locator("frontdesk-widget .launcher").isVisible(), 30_000).toBe(true);
    await visitor.screenshot({ path: join(ARTIFACTS, "first-run-site-with-widget.png") });
    await visitor.context().close();

    // The link is spent: it says so and points to the sign-in.
    const again = await (await browser.newContext()).newPage();
    await again.goto(setupUrl);
    await poll(() => again.getByRole("heading", { name: "This setup link cannot be used" }).isVisible()).toBe(true);
    expect(await again.getByRole("alert").textContent()).toMatch(/already set up/);
    expect(await again.getByRole("link", { name: "Sign in to the console" }).getAttribute("href")).toBe("/console");
    await again.screenshot({ path: join(ARTIFACTS, "first-run-spent-link.png") });
    expect(await seriousViolations(again)).toEqual([]);
    await again.context().close();

    expect(pageErrors).toEqual([]);
    expect(policyViolations).toEqual([]);
  }, 180_000);

  it("error: a made-up token shows a clear message with a link to sign in", async () => {
    const stranger = await (await browser.newContext()).newPage();
    try {
      await stranger.goto(`${serviceUrl}/console/setup#token=not-a-real-token`);
      await poll(() => stranger.getByRole("heading", { name: "This setup link cannot be used" }).isVisible()).toBe(true);
      expect(await stranger.getByRole("link", { name: "Sign in to the console" }).isVisible()).toBe(true);
    } finally {
      await stranger.context().close();
    }
  });
});
