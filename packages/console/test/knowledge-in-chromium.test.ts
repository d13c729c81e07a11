import { join } from "node:path";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { pageWithBoilerplate } from "../../server/test/support/loopback-site.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { modelAnswer, startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";

/**
 * The Knowledge screen in Chromium, on the real service with its indexing workers in the process
 * (the crawler allowed on loopback, as FRONTDESK_CRAWLER_ALLOW_PRIVATE_NETWORKS=true allows it):
 * an admin adds a loopback site's sitemap and watches its progress move without a reload, one page
 * held until the test lets it go and one missing (its reason shown in words); an invalid address
 * gets the server's words beside the field; "Try a question" explains in words how the bot
 * decided (the page, the question's words it holds, why it is sure), shows the passages read with
 * those words and the answer with its citation; re-sync; delete.
 */
describeNeeding("chromium-headless-shell")("the console's Knowledge screen, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let page: Page;
  let releaseHeldPage: () => void = () => {};

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    const { site } = stage;
    const send = (body: string, status = 200, type = "text/html; charset=utf-8") => (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(status, { "content-type": type });
      response.end(body);
    };
    const held = new Promise<void>((resolve) => (releaseHeldPage = resolve));
    site.routes.set(
      "/kb/sitemap.xml",
      send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${["/kb/hangar", "/kb/tours", "/kb/gone", "/kb/late"]
          .map((path) => `<url><loc>${site.url(path)}</loc></url>`)
          .join("")}</urlset>`,
        200,
        "application/xml",
      ),
    );
    site.routes.set(
      "/kb/hangar",
      send(
        pageWithBoilerplate("Zeppelin hangar tours", [
          "Our zeppelin hangar tours cost 40 euros per person and last two hours.",
          "Zeppelin hangar tours leave every Saturday at ten from the north gate.",
          "Children under twelve visit the zeppelin hangar for free with an adult.",
        ]),
      ),
    );
    site.routes.set(
      "/kb/tours",
      send(pageWithBoilerplate("Bicycle tours", ["Guided bicycle tours run along the river every Sunday.", "Helmets are included with every tour.", "Book a week ahead."])),
    );
    site.routes.set("/kb/gone", send("<!doctype html><title>Not found</title><p>Nothing here.</p>", 404));
    site.routes.set("/kb/late", (_request, response) => {
      void held.then(() => send(pageWithBoilerplate("Opening hours", ["The workshop opens at nine.", "It closes at six on weekdays.", "Sundays it is closed."]))(_request, response));
    });
  });
  afterAll(async () => {
    releaseHeldPage();
    await browser?.close();
    await stage?.close();
  });

  it("happy: add a sitemap, its progress live until indexed without a reload, the failed page explained; add a text; an invalid URL refused beside the field; try a question (how the bot decided in words, the passages with the question's words, the answer with its citation); re-sync; delete after confirming; no serious axe violation", async () => {
    const signedIn = await signedInOperator(browser, stage, { email: "ada@acme-bikes.test", name: "Ada", role: "admin" }, "/console/knowledge");
    page = signedIn.page;
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-knowledge-failure.png"), fullPage: true });
      console.error("console page errors:", signedIn.pageErrors, "at", page.url());
    });
    await poll(() => page.getByRole("heading", { name: "Knowledge", level: 1 }).isVisible()).toBe(true);
    const sources = page.getByRole("list", { name: "Sources" });
    // The bike shop's texts the stage pushed are listed, indexed.
    await poll(() => sources.getByRole("listitem").count()).toBeGreaterThanOrEqual(1);
    const before = await sources.getByRole("listitem").count();
    // A marker that a reload would erase.
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    // An invalid address: the server's words beside the field, the field marked invalid.
    await page.getByRole("radio", { name: "Page" }).check();
    const pageAddress = page.getByRole("textbox", { name: "Page address" });
    await pageAddress.fill("not a web address");
    await page.getByRole("button", { name: "Add source" }).click();
    await poll(() => pageAddress.getAttribute("aria-invalid")).toBe("true");
    const described = await pageAddress.getAttribute("aria-describedby");
    const fieldError = page.locator(`[id="${described!.split(" ")[0]}"]`);
    expect(await fieldError.textContent()).toMatch(/\S/);
    expect(await fieldError.getAttribute("class")).toBe("field-error");
    await page.screenshot({ path: join(ARTIFACTS, "console-knowledge-invalid-url.png") });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await sources.getByRole("listitem").count()).toBe(before);

    // The sitemap, added from the screen: it appears syncing, its pages counted as they are indexed.
    await page.getByRole("radio", { name: "Sitemap" }).check();
    const sitemapUrl = stage.site.url("/kb/sitemap.xml");
    await page.getByRole("textbox", { name: "Sitemap address" }).fill(sitemapUrl);
    await page.getByRole("button", { name: "Add source" }).click();
    const row = sources.getByRole("listitem", { name: sitemapUrl });
    await poll(() => row.count()).toBe(1);
    // Held on /kb/late: three of the four pages settle (two indexed, one missing), the last is still to go.
    await poll(() => row.locator(".knowledge-progress-words").textContent(), 60_000).toBe("2 of 4 pages indexed, 1 failed, 1 to go");
    expect(await row.getAttribute("data-status")).toBe("syncing");
    expect(await row.getByText("Syncing", { exact: true }).isVisible()).toBe(true);
    expect(await row.getByRole("progressbar").evaluate((bar) => [(bar as HTMLProgressElement).value, (bar as HTMLProgressElement).max])).toEqual([3, 4]);
    await page.screenshot({ path: join(ARTIFACTS, "console-knowledge-syncing.png") });
    expect(await seriousViolations(page)).toEqual([]);
    releaseHeldPage();
    await poll(() => row.locator(".knowledge-progress-words").textContent(), 60_000).toBe("3 of 4 pages indexed, 1 failed");
    await poll(() => row.getAttribute("data-status")).toBe("indexed");
    expect(await row.getByRole("progressbar").count()).toBe(0);
    // The failed page, in words.
    await row.getByText("1 page failed: see why").click();
    const failedPage = row.getByRole("listitem").filter({ has: page.getByRole("link", { name: stage.site.url("/kb/gone") }) });
    await poll(() => failedPage.count()).toBe(1);
    expect(await failedPage.locator(".failed-reason").textContent()).toMatch(/404/);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

    // Try a question: how the bot decided, stage by stage in words, the passages with the question's words they hold, the answer citing [1].
    stage.model.respondWith(modelAnswer(["Hangar tours cost 40 euros per person [1]."]));
    await page.getByRole("textbox", { name: "Question" }).fill("How much is a zeppelin hangar tour?");
    await page.getByRole("button", { name: "Try", exact: true }).click();
    const passages = page.getByRole("list", { name: "Passages" });
    await poll(() => passages.getByRole("listitem").count()).toBeGreaterThanOrEqual(1);
    const hangarPassages = passages.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Zeppelin hangar tours" }) });
    expect(await hangarPassages.count()).toBeGreaterThanOrEqual(1);
    expect(await hangarPassages.first().locator(".word-matched").allTextContents()).toEqual(expect.arrayContaining(["zeppelin", "hangar", "tour"]));
    expect(await page.locator(".try-answer-text").textContent()).toBe("Hangar tours cost 40 euros per person.");
    const firstPassageLink = await passages.getByRole("listitem").first().getByRole("link").getAttribute("href");
    const citations = page.getByRole("list", { name: "Citations" }).getByRole("link");
    expect(await citations.count()).toBe(1);
    expect(await citations.first().getAttribute("href")).toBe(firstPassageLink);
    const steps = page.getByRole("list", { name: "How the bot decided" }).getByRole("listitem");
    expect(await steps.count()).toBe(7);
    expect(await steps.filter({ hasText: "Sure or unsure" }).textContent()).toMatch(/Sure: .*Zeppelin hangar tours/);
    expect(await page.locator(".try-step-decided").textContent()).toMatch(/written by openai:\S+ from the passages and cites the page it used/);
    // Words, not scores: no rank score and no table of signals against thresholds.
    expect(await page.locator(".try-result").textContent()).not.toMatch(/score|threshold|BM25/i);
    expect(await page.getByRole("table").count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, "console-knowledge.png"), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // A text: indexed on its own, titled by its title.
    await page.getByRole("radio", { name: "Text" }).check();
    await page.getByRole("textbox", { name: "Title (optional)" }).fill("Gift cards");
    await page.getByRole("textbox", { name: "Text", exact: true }).fill("Gift cards are valid for two years and can be used in every shop.");
    await page.getByRole("button", { name: "Add source" }).click();
    const textRow = sources.getByRole("listitem", { name: "Gift cards" });
    await poll(() => textRow.getAttribute("data-status"), 60_000).toBe("indexed");
    expect(await textRow.locator(".knowledge-progress-words").textContent()).toBe("1 of 1 page indexed");

    // Re-sync: the sitemap is fetched again and the source settles indexed again.
    const sitemapReads = () => stage.site.requests.filter((path) => path === "/kb/sitemap.xml").length;
    const readsBefore = sitemapReads();
    await row.getByRole("button", { name: `Re-sync ${sitemapUrl}` }).click();
    await poll(() => sitemapReads(), 60_000).toBeGreaterThan(readsBefore);
    await poll(() => row.getAttribute("data-status"), 60_000).toBe("indexed");
    await poll(() => row.locator(".knowledge-progress-words").textContent(), 60_000).toBe("3 of 4 pages indexed, 1 failed");

    // A schedule: chosen on the row, stored at once, its next re-sync shown.
    const storedSchedule = async () =>
      (await stage.t.services.db.query<{ schedule: string; next_sync_at: Date | null }>(`SELECT schedule, next_sync_at FROM sources WHERE workspace_id = $1 AND kind = 'sitemap'`, [stage.tenant.workspaceId])).rows[0];
    expect(await storedSchedule()).toMatchObject({ schedule: "off", next_sync_at: null });
    const schedule = row.getByRole("combobox", { name: `Automatic re-sync of ${sitemapUrl}` });
    await schedule.selectOption("daily");
    await poll(async () => (await storedSchedule())?.schedule).toBe("daily");
    expect((await storedSchedule())?.next_sync_at).not.toBeNull();
    await poll(() => row.locator(".source-schedule time").count()).toBe(1);
    expect(await schedule.inputValue()).toBe("daily");
    expect(await seriousViolations(page)).toEqual([]);

    // Delete, after confirming: it leaves the list and the store.
    const storedSitemaps = async () =>
      Number((await stage.t.services.db.query<{ n: string }>(`SELECT count(*) AS n FROM sources WHERE workspace_id = $1 AND kind = 'sitemap'`, [stage.tenant.workspaceId])).rows[0]?.n);
    expect(await storedSitemaps()).toBe(1);
    await row.getByRole("button", { name: `Delete ${sitemapUrl}` }).click();
    const confirm = row.getByRole("group", { name: `Confirm deleting ${sitemapUrl}` });
    await poll(() => confirm.isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole("button", { name: "Delete", exact: true }).click();
    await poll(() => row.count()).toBe(0);
    expect(await storedSitemaps()).toBe(0);
    expect(await sources.getByRole("listitem").count()).toBe(before + 1);

    // Tablet width and dark mode.
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.screenshot({ path: join(ARTIFACTS, "console-knowledge-tablet.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: join(ARTIFACTS, "console-knowledge-dark.png") });
    expect(await seriousViolations(page)).toEqual([]);
    expect(signedIn.pageErrors).toEqual([]);
  }, 180_000);

  it("security: an operator with the agent role sees the sources but the server refuses adding or deleting one, and the screen says so", async () => {
    const signedIn = await signedInOperator(browser, stage, { email: "abe@acme-bikes.test", name: "Abe", role: "agent" }, "/console/knowledge");
    const agentPage = signedIn.page;
    try {
      const sources = agentPage.getByRole("list", { name: "Sources" });
      const row = sources.getByRole("listitem", { name: "Delivery times" });
      await poll(() => row.getAttribute("data-status")).toBe("indexed");
      const count = async () => Number((await stage.t.services.db.query<{ n: string }>(`SELECT count(*) AS n FROM sources WHERE workspace_id = $1`, [stage.tenant.workspaceId])).rows[0]?.n);
      const stored = await count();
      await agentPage.getByRole("textbox", { name: "Sitemap address" }).fill(stage.site.url("/kb/sitemap.xml"));
      await agentPage.getByRole("button", { name: "Add source" }).click();
      await poll(() => agentPage.locator(".add-source").getByRole("alert").textContent()).toBe("Only an admin of the workspace may do this.");
      await row.getByRole("button", { name: "Delete Delivery times" }).click();
      await row.getByRole("group", { name: "Confirm deleting Delivery times" }).getByRole("button", { name: "Delete", exact: true }).click();
      await poll(() => row.getByRole("alert").textContent()).toBe("Only an admin of the workspace may do this.");
      expect(await count()).toBe(stored);
      expect(await row.count()).toBe(1);
      expect(signedIn.pageErrors).toEqual([]);
    } finally {
      await signedIn.context.close();
    }
  }, 60_000);
});
