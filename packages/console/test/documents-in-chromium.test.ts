import type { IncomingMessage, ServerResponse } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { runAdminCommand } from "../../server/src/admin/run-admin-command.js";
import { pageWithBoilerplate } from "../../server/test/support/loopback-site.js";
import { adminOf } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";

/** Screenshots a person looks at; under /tmp so that nothing of a run lands in the repository. */
const SHOTS = "/tmp";

/**
 * What was indexed, in Chromium (issue 32 §3): a sitemap of a loopback site, indexed by the
 * in-process workers; its pages listed under the source with status, size and last fetch; a page's
 * extracted text and passages opened; the Exclude switch takes the page's passages out of the
 * store, and back; a sitemap's URL patterns refused beside the field when invalid.
 */
describeNeeding("chromium-headless-shell")("the Knowledge screen's pages, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let sitemapUrl = "";

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    const { site } = stage;
    const send = (body: string, type = "text/html; charset=utf-8") => (_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(200, { "content-type": type });
      response.end(body);
    };
    const pages: Record<string, [string, string[]]> = {
      "/docs/lockers": ["Lockers", ["Bike lockers at the station cost two euros a day.", "A locker key is handed out at the kiosk.", "Lost keys cost ten euros."]],
      "/docs/careers": ["Careers", ["We are hiring a mechanic for the weekend shift.", "Send your letter to the workshop.", "Interviews happen on Mondays."]],
    };
    site.routes.set(
      "/docs/sitemap.xml",
      send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Object.keys(pages)
          .map((path) => `<url><loc>${site.url(path)}</loc></url>`)
          .join("")}</urlset>`,
        "application/xml",
      ),
    );
    for (const [path, [title, paragraphs]] of Object.entries(pages)) site.routes.set(path, send(pageWithBoilerplate(title, paragraphs)));
    const { token } = (await runAdminCommand(adminOf(stage.t.services), { command: "token.create", workspaceId: stage.tenant.workspaceId, name: "docs" })) as { token: string };
    sitemapUrl = site.url("/docs/sitemap.xml");
    const created = await stage.t.app.inject({
      method: "POST",
      url: "/api/v1/workspace/sources",
      headers: { authorization: `Bearer ${token}` },
      payload: { agent_id: stage.tenant.agentId, kind: "sitemap", url: sitemapUrl },
    });
    expect(created.statusCode).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  const chunksOf = async (path: string) =>
    Number(
      (
        await stage.t.services.db.query<{ n: string }>(`SELECT count(*) AS n FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.url = $1`, [stage.site.url(path)])
      ).rows[0]?.n,
    );

  it("happy: the pages of a sitemap with status, size and fetch time; a page's text and passages; Exclude and include again; no serious axe violation", async () => {
    const signedIn = await signedInOperator(browser, stage, { email: "ada@acme-bikes.test", name: "Ada", role: "admin" }, "/console/knowledge");
    const { page } = signedIn;
    onTestFailed(async () => {
      await page.screenshot({ path: `${SHOTS}/console-documents-failure.png`, fullPage: true });
    });
    const row = page.getByRole("list", { name: "Sources" }).getByRole("listitem", { name: sitemapUrl });
    await poll(() => row.getAttribute("data-status"), 60_000).toBe("indexed");
    await row.getByText(/^What was indexed/).click();
    const pages = row.getByRole("list", { name: `Pages of ${sitemapUrl}` });
    await poll(() => pages.locator(":scope > li").count()).toBe(2);
    const lockers = pages.getByRole("listitem", { name: "Lockers" });
    expect(await lockers.locator(".page-status").textContent()).toBe("Indexed");
    expect(await lockers.locator(".page-facts").textContent()).toMatch(/^\d+(\.\d)? (B|KB)\d+ passages?Fetched /);

    // The extracted text and the passages, opened on demand.
    await lockers.getByRole("button", { name: "Show text" }).click();
    await poll(() => lockers.locator(".page-text").textContent()).toContain("Bike lockers at the station cost two euros a day.");
    expect(await lockers.locator(".page-text").textContent()).not.toContain("cookies");
    const passages = lockers.getByRole("list", { name: "Passages of Lockers" });
    expect(await passages.getByRole("listitem").count()).toBeGreaterThanOrEqual(1);
    expect(await lockers.getByRole("button", { name: "Hide text" }).getAttribute("aria-expanded")).toBe("true");
    await page.screenshot({ path: `${SHOTS}/console-documents.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // Exclude: the switch flips, the page's passages leave the store, the page says so.
    const careers = pages.getByRole("listitem", { name: "Careers" });
    expect(await chunksOf("/docs/careers")).toBeGreaterThan(0);
    const exclude = careers.getByRole("switch", { name: "Exclude Careers" });
    expect(await exclude.isChecked()).toBe(false);
    await exclude.click();
    await poll(() => careers.getAttribute("data-status")).toBe("excluded");
    expect(await exclude.isChecked()).toBe(true);
    expect(await careers.locator(".page-status").textContent()).toBe("Excluded");
    expect(await chunksOf("/docs/careers")).toBe(0);
    await careers.getByRole("button", { name: "Show text" }).click();
    await poll(() => careers.locator(".page-content").textContent()).toContain("Excluded: none of it answers.");
    await page.screenshot({ path: `${SHOTS}/console-documents-excluded.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // Included again: indexed anew.
    await exclude.click();
    await poll(async () => chunksOf("/docs/careers"), 60_000).toBeGreaterThan(0);

    // A bad URL pattern: the server's words beside the field.
    await row.getByText("Which pages are read").click();
    const never = row.getByRole("textbox", { name: "Never pages matching" });
    await never.fill("careers/*");
    await row.getByRole("button", { name: "Save patterns" }).click();
    await poll(() => never.getAttribute("aria-invalid")).toBe("true");
    expect(await row.locator(".source-patterns .field-error").textContent()).toMatch(/line 1: must start with \//);
    await never.fill("/docs/careers");
    await row.getByRole("button", { name: "Save patterns" }).click();
    await poll(() => pages.getByRole("listitem", { name: "Careers" }).count()).toBe(0);
    expect(await chunksOf("/docs/careers")).toBe(0);
    await page.screenshot({ path: `${SHOTS}/console-documents-patterns.png`, fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // Dark mode.
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await seriousViolations(page)).toEqual([]);
    expect(signedIn.pageErrors).toEqual([]);
    await signedIn.context.close();
  }, 180_000);

  it("security: an operator with the agent role sees the pages but no Exclude switch", async () => {
    const signedIn = await signedInOperator(browser, stage, { email: "abe@acme-bikes.test", name: "Abe", role: "agent" }, "/console/knowledge");
    try {
      const row = signedIn.page.getByRole("list", { name: "Sources" }).getByRole("listitem", { name: sitemapUrl });
      await poll(() => row.count(), 30_000).toBe(1);
      await row.getByText(/^What was indexed/).click();
      const pages = row.getByRole("list", { name: `Pages of ${sitemapUrl}` });
      await poll(() => pages.locator(":scope > li").count()).toBeGreaterThanOrEqual(1);
      expect(await pages.getByRole("switch").count()).toBe(0);
      expect(await row.getByText("Which pages are read").count()).toBe(0);
    } finally {
      await signedIn.context.close();
    }
  }, 60_000);
});
