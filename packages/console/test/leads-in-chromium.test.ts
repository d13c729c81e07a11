import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { bearer, startSession } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";

const BULK_LEADS = 51;
const SECOND_AGENT = "agt_leads_browser_second";

/**
 * The Leads screen in Chromium: leads a visitor left in the widget and older ones in the store,
 * a page of 50 and "Load more", search and the agent filter kept in the URL, and the CSV export
 * downloaded with the filter it shows.
 */
describeNeeding("chromium-headless-shell")("the console's Leads screen, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    const { db } = stage.t.services;
    const { workspaceId, agentId } = stage.tenant;
    await db.query(`INSERT INTO agents (id, workspace_id, name, persona_name) VALUES ($1, $2, 'Rentals Bot', 'Rio')`, [SECOND_AGENT, workspaceId]);
    const insert = (id: string, agent: string, email: string, name: string, at: string) =>
      db.query(
        `INSERT INTO leads (id, workspace_id, agent_id, email, email_normalized, name, fields, created_at, updated_at)
         VALUES ($1, $2, $3, $4, lower($4), $5, '{}'::jsonb, $6, $6)`,
        [id, workspaceId, agent, email, name, at],
      );
    for (let index = 0; index < BULK_LEADS; index += 1) {
      await insert(`lead_bulk_${index}`, agentId, `bulk-${String(index).padStart(2, "0")}@example.com`, `Bulk ${index}`, new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString());
    }
    await insert("lead_rentals", SECOND_AGENT, "rita@rentals.test", "Rita Rentals", "2026-02-01T09:00:00Z");
    // Two visitors leave their e-mail in the widget: the newest leads.
    for (const lead of [
      { email: "walter@visitor.test", name: "Walter Whitfield", phone: "+351 912 000 111" },
      { email: "wanda@visitor.test", name: "Wanda Moss" },
    ]) {
      const session = await startSession(stage.t.app, agentId, { page_url: stage.site.url("/pricing") }, stage.site.origin);
      const captured = await stage.t.app.inject({ method: "POST", url: "/api/v1/widget/leads", headers: bearer(session.jwt), payload: lead });
      expect(captured.statusCode, captured.body).toBeLessThan(300);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  const rows = () => page.getByRole("table", { name: "Leads, newest first" }).locator("tbody tr");
  const emails = async () => (await rows().locator("th").allTextContents()).map((email) => email.toLowerCase());
  const downloadCsv = async () => {
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
    return readFile(await download.path(), "utf8");
  };

  it("happy: the leads listed newest first, 50 then Load more; search and the agent filter narrow them (kept in the URL); the CSV export downloads the leads shown; no serious axe violation", async () => {
    const signedIn = await signedInOperator(browser, stage, { email: "lea@acme-bikes.test", name: "Lea", role: "agent" }, "/console/leads");
    page = signedIn.page;
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-leads-failure.png"), fullPage: true });
      console.error("console page errors:", signedIn.pageErrors, "at", page.url());
    });
    await poll(() => page.getByRole("heading", { name: "Leads", level: 1 }).isVisible()).toBe(true);

    // The first page: the widget's two leads on top (with the agent's name), 50 in all.
    await poll(() => rows().count()).toBe(50);
    expect((await emails()).slice(0, 3)).toEqual(["wanda@visitor.test", "walter@visitor.test", "rita@rentals.test"]);
    const walter = rows().filter({ hasText: "walter@visitor.test" });
    expect(await walter.locator("td").allTextContents()).toEqual(expect.arrayContaining(["Walter Whitfield", "+351 912 000 111", "Acme Assistant"]));
    // The conversation the lead was left in opens in the inbox.
    expect(await walter.getByRole("link", { name: "Open" }).getAttribute("href")).toMatch(/^\/console\/inbox\/cnv_/);
    await page.screenshot({ path: join(ARTIFACTS, "console-leads.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // Load more: the rest, once each; no more pages.
    await page.getByRole("button", { name: "Load more" }).click();
    await poll(() => rows().count()).toBe(2 + 1 + BULK_LEADS);
    expect(new Set(await emails()).size).toBe(2 + 1 + BULK_LEADS);
    expect(await page.getByRole("button", { name: "Load more" }).count()).toBe(0);

    // The CSV of everything: a header and one record per lead.
    const everything = await downloadCsv();
    const records = everything.split("\r\n").filter(Boolean);
    expect(records[0]).toBe("email,name,phone,agent,created_at,updated_at,conversation_id,fields");
    expect(records).toHaveLength(1 + 2 + 1 + BULK_LEADS);

    // Search narrows (by name or e-mail) and stays in the URL.
    const search = page.getByRole("searchbox", { name: "Search" });
    await search.fill("walter");
    await poll(() => emails()).toEqual(["walter@visitor.test"]);
    expect(new URL(page.url()).searchParams.get("q")).toBe("walter");
    await search.fill("nobody-by-this-name");
    await poll(() => page.getByText("No lead matches.").isVisible()).toBe(true);
    await search.fill("Whitfield");
    await poll(() => emails()).toEqual(["walter@visitor.test"]);
    await page.screenshot({ path: join(ARTIFACTS, "console-leads-search.png") });
    // The export follows the search.
    const searched = (await downloadCsv()).split("\r\n").filter(Boolean);
    expect(searched).toHaveLength(2);
    expect(searched[1]).toMatch(/^walter@visitor\.test,Walter Whitfield,'\+351 912 000 111,Acme Assistant,/);

    // The agent filter: the other agent's one lead.
    await search.fill("");
    await poll(() => new URL(page.url()).searchParams.get("q")).toBe(null);
    await page.getByRole("combobox", { name: "Agent" }).selectOption({ label: "Rentals Bot" });
    await poll(() => emails()).toEqual(["rita@rentals.test"]);
    expect(new URL(page.url()).searchParams.get("agent")).toBe(SECOND_AGENT);
    const filtered = (await downloadCsv()).split("\r\n").filter(Boolean);
    expect(filtered.map((record) => record.split(",")[0])).toEqual(["email", "rita@rentals.test"]);

    // Tablet width and dark mode.
    await page.getByRole("combobox", { name: "Agent" }).selectOption({ label: "All agents" });
    // The unfiltered list as it was left: both pages.
    await poll(() => rows().count()).toBe(2 + 1 + BULK_LEADS);
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.screenshot({ path: join(ARTIFACTS, "console-leads-tablet.png") });
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: join(ARTIFACTS, "console-leads-dark.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // Live, without a reload: a visitor leaves an e-mail in the widget (lead.captured), then a name with it (lead.updated).
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const visitor = await startSession(stage.t.app, stage.tenant.agentId, { page_url: stage.site.url("/contact") }, stage.site.origin);
    const leave = async (lead: Record<string, string>) => {
      const response = await stage.t.app.inject({ method: "POST", url: "/api/v1/widget/leads", headers: bearer(visitor.jwt), payload: lead });
      expect(response.statusCode, response.body).toBeLessThan(300);
    };
    await leave({ email: "vera@visitor.test" });
    await poll(async () => (await emails())[0]).toBe("vera@visitor.test");
    expect(await rows().count()).toBe(3 + 1 + BULK_LEADS);
    await leave({ email: "vera@visitor.test", name: "Vera Lindqvist" });
    await poll(() => rows().first().locator("td").first().textContent()).toBe("Vera Lindqvist");
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
    expect(signedIn.pageErrors).toEqual([]);
  }, 120_000);
});
