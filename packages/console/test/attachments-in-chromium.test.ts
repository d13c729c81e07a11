import { join } from "node:path";
import sharp from "sharp";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildPdf } from "../../server/test/support/generated-files.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { seriousViolations as widgetViolations } from "../../widget/test/support/widget-axe.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";

/**
 * Attachments both ways (issue 33, part 4), in two browser contexts on the real service: a visitor
 * attaches a photo in the widget on a host site; the operator sees it in the console's timeline,
 * takes over and answers with a PDF from the reply box; the widget shows it as a chip that downloads.
 */
describeNeeding("chromium-headless-shell")("attachments between the widget and the console, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_LLM_PROVIDER: "extractive" }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  it("happy: a visitor's photo travels from the widget to the console, and the operator's PDF back; no serious axe violation on either side", async () => {
    const { page: consolePage, pageErrors } = await signedInOperator(browser, stage, { email: "ana@acme-bikes.test", name: "Ana", role: "agent" });

    // The visitor, on the shop's site, attaches a photo and sends it with a question.
    const visitorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const visitorPage = await visitorContext.newPage();
    await visitorPage.goto(stage.hostPage("/tent"));
    await visitorPage.locator("frontdesk-widget .launcher").click();
    const message = visitorPage.getByRole("textbox", { name: "Message" });
    await poll(() => message.isEnabled()).toBe(true);
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#27ae60" } })
      .composite([{ input: Buffer.from('<svg width="300" height="200"><rect x="90" y="40" width="120" height="120" fill="#e74c3c"/></svg>') }])
      .jpeg()
      .toBuffer();
    await poll(() => visitorPage.getByRole("button", { name: "Attach a file", exact: true }).isEnabled()).toBe(true);
    await visitorPage.locator("frontdesk-widget input[type=file]").setInputFiles({ name: "torn-fly.jpg", mimeType: "image/jpeg", buffer: photo });
    await poll(() => visitorPage.getByRole("button", { name: "Remove torn-fly.jpg", exact: true }).count()).toBe(1);
    await poll(() => visitorPage.getByRole("progressbar").count()).toBe(0);
    await message.fill("The fly of my tent is torn, here is a photo");
    await visitorPage.keyboard.press("Enter");
    await poll(() => visitorPage.locator("frontdesk-widget .msg.from-visitor .file img").count()).toBe(1);
    await poll(() => visitorPage.locator("frontdesk-widget [aria-busy=true]").count()).toBe(0);
    // Then asks for a person (the widget follows the conversation live from now on).
    await visitorPage.getByRole("button", { name: "More options" }).click();
    await visitorPage.getByRole("menuitem", { name: "Talk to a person" }).click();
    await poll(() => visitorPage.getByRole("log", { name: "Conversation" }).textContent()).toMatch(/Waiting for a person/i);

    // The operator opens the conversation: the photo is in the timeline, loaded through the console's own route.
    const { rows } = await stage.t.services.db.query<{ id: string }>(`SELECT id FROM conversations WHERE agent_id = $1 ORDER BY created_at DESC LIMIT 1`, [stage.tenant.agentId]);
    await consolePage.goto(`${stage.serviceUrl}/console/inbox/${rows[0]!.id}`);
    const transcript = consolePage.getByRole("log", { name: "Transcript" });
    const thumbnail = transcript.locator(".from-visitor").getByRole("img", { name: "torn-fly.jpg" });
    await poll(() => thumbnail.evaluate((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth)).toBe(300);
    expect(await thumbnail.getAttribute("src")).toMatch(/\/api\/v1\/console\/attachments\/att_\w+\/torn-fly\.jpg$/);
    expect(await seriousViolations(consolePage)).toEqual([]);
    await consolePage.screenshot({ path: join(ARTIFACTS, "console-attachment-received.png") });

    // Ana takes over and sends a PDF with her reply, from the reply box.
    await consolePage.getByRole("button", { name: "Take over" }).click();
    const reply = consolePage.getByRole("textbox", { name: "Reply to the visitor" });
    await poll(() => reply.isVisible()).toBe(true);
    const chooser = consolePage.waitForEvent("filechooser");
    await consolePage.getByRole("button", { name: "Attach a file" }).click();
    await (await chooser).setFiles({ name: "repair-guide.pdf", mimeType: "application/pdf", buffer: Buffer.from(await buildPdf(["How to patch a tent's fly"])) });
    await poll(() => consolePage.getByRole("list", { name: "Files to send" }).textContent()).toContain("Ready");
    expect(await seriousViolations(consolePage)).toEqual([]);
    await consolePage.screenshot({ path: join(ARTIFACTS, "console-attachment-ready.png") });
    await reply.fill("Here is our repair guide");
    await consolePage.getByRole("button", { name: "Send" }).click();
    await poll(() => transcript.locator(".from-operator").getByRole("link", { name: "repair-guide.pdf" }).count()).toBe(1);
    await poll(() => consolePage.getByRole("list", { name: "Files to send" }).count()).toBe(0);

    // The widget shows it live, as a chip whose link downloads the PDF (the visitor's signed link).
    const chip = visitorPage.locator("frontdesk-widget .msg.from-agent .chip", { hasText: "repair-guide.pdf" });
    await poll(() => chip.count()).toBe(1);
    const href = (await chip.getAttribute("href"))!;
    expect(href).toMatch(/\/api\/v1\/widget\/attachments\/att_\w+\/repair-guide\.pdf\?access=/);
    const download = await visitorContext.request.get(href);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/pdf");
    expect(download.headers()["content-disposition"]).toMatch(/^attachment;/);
    expect((await download.body()).subarray(0, 5).toString()).toBe("%PDF-");
    expect(await widgetViolations(visitorPage)).toEqual([]);
    await visitorPage.screenshot({ path: join(ARTIFACTS, "widget-attachment-received.png"), clip: { x: 850, y: 92, width: 430, height: 708 } });
    expect(pageErrors).toEqual([]);
    await visitorContext.close();
  });
});
