import { join } from "node:path";
import sharp from "sharp";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { seriousViolations } from "./support/widget-axe.js";
import { ARTIFACTS, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 25 });
const WIDGET_CLIP = { x: 850, y: 92, width: 430, height: 708 };

/**
 * Attachments in the widget (issue 33, part 4): the attach button's picker, paste and drop into the
 * composer; a thumbnail or a chip with the upload's progress and a remove button while it uploads;
 * the message then shows the photo (served by the service) and the operator's PDF as a chip.
 */
describeNeeding("chromium-headless-shell")("attachments in the widget, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let photo: Buffer;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_LLM_PROVIDER: "extractive" }), launchChromium()]);
    photo = await sharp({ create: { width: 320, height: 200, channels: 3, background: "#2e86de" } })
      .composite([{ input: Buffer.from('<svg width="320" height="200"><circle cx="160" cy="100" r="60" fill="#f6b93b"/></svg>') }])
      .jpeg()
      .withExif({ IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 2406/100" } })
      .toBuffer();
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  async function openWidget(path: string, dark = false): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: dark ? "dark" : "light" });
    const page = await context.newPage();
    await page.goto(stage.hostPage(path));
    await page.locator("frontdesk-widget .launcher").click();
    await poll(() => page.locator("frontdesk-widget textarea").isEnabled()).toBe(true);
    await poll(() => page.getByRole("button", { name: "Attach a file", exact: true }).isEnabled()).toBe(true);
    return page;
  }
  const pending = (page: Page) => page.locator("frontdesk-widget .pending li");

  it("happy: a picked photo shows its thumbnail and progress while it uploads, then goes with the message and is shown from the service; axe finds nothing serious", async () => {
    const page = await openWidget("/attach-photo");
    // Hold the upload: its chip shows the thumbnail and a progress bar named after the file.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/v1/widget/attachments", async (route) => {
      await held;
      await route.continue();
    });
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Attach a file", exact: true }).click();
    await (await chooser).setFiles({ name: "torn-fly.jpg", mimeType: "image/jpeg", buffer: photo });
    await poll(() => pending(page).count()).toBe(1);
    await poll(() => page.getByRole("progressbar", { name: "torn-fly.jpg" }).count()).toBe(1);
    expect(await pending(page).locator("img").getAttribute("src")).toMatch(/^blob:/);
    expect(await page.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "attachment-uploading.png"), clip: WIDGET_CLIP });
    release();
    await poll(() => page.getByRole("progressbar").count()).toBe(0);
    await page.unroute("**/api/v1/widget/attachments");

    await page.locator("frontdesk-widget textarea").fill("The fly of my tent is torn, see the photo");
    await page.keyboard.press("Enter");
    const sent = page.locator("frontdesk-widget .msg.from-visitor").last();
    await poll(() => page.locator("frontdesk-widget [aria-busy=true]").count()).toBe(0);
    const image = sent.locator(".file img");
    await poll(() => image.evaluate((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth)).toBe(320);
    expect(await image.getAttribute("alt")).toBe("torn-fly.jpg");
    expect(await image.getAttribute("src")).toMatch(/\/api\/v1\/widget\/attachments\/att_\w+\/torn-fly\.jpg\?access=/);
    await poll(() => pending(page).count()).toBe(0);
    const { rows } = await stage.t.services.db.query<{ media_type: string; message_id: string | null }>(
      `SELECT a.media_type, a.message_id FROM attachments a JOIN conversations c ON c.id = a.conversation_id WHERE c.agent_id = $1 AND a.filename = 'torn-fly.jpg'`,
      [stage.tenant.agentId],
    );
    expect(rows).toEqual([{ media_type: "image/jpeg", message_id: expect.stringMatching(/^msg_/) }]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "attachment-sent.png"), clip: WIDGET_CLIP });
    await page.context().close();
  });

  it("happy: a pasted image and a dropped PDF join the composer; the remove button takes one out; a file alone can be sent (dark scheme)", async () => {
    const page = await openWidget("/attach-paste-drop", true);
    const pdf = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } }).png().toBuffer();
    await page.evaluate(
      ([png]) => {
        const root = document.querySelector("frontdesk-widget")!.shadowRoot!;
        const toFile = (bytes: number[], name: string, type: string) => new File([new Uint8Array(bytes)], name, { type });
        const pasted = new DataTransfer();
        pasted.items.add(toFile(png!, "screenshot.png", "image/png"));
        root.querySelector("textarea")!.dispatchEvent(new ClipboardEvent("paste", { clipboardData: pasted, bubbles: true, cancelable: true }));
        const dropped = new DataTransfer();
        dropped.items.add(toFile([...new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")], "order 42.pdf", "application/pdf"));
        root.querySelector("form.composer")!.dispatchEvent(new DragEvent("drop", { dataTransfer: dropped, bubbles: true, cancelable: true }));
      },
      [[...pdf]],
    );
    await poll(() => pending(page).count()).toBe(2);
    await poll(() => page.getByRole("progressbar").count()).toBe(0);
    expect(await pending(page).allInnerTexts()).toEqual([expect.any(String), expect.stringContaining("order 42.pdf")]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "attachment-pending-dark.png"), clip: WIDGET_CLIP });

    await page.getByRole("button", { name: "Remove screenshot.png", exact: true }).click();
    await poll(() => pending(page).count()).toBe(1);
    // No text: the PDF alone is sent, shown as a chip; the bot says nothing to it.
    await page.getByRole("button", { name: "Send", exact: true }).click();
    const chip = page.locator("frontdesk-widget .msg.from-visitor .chip");
    await poll(() => chip.innerText()).toBe("order 42.pdf");
    expect(await chip.getAttribute("href")).toMatch(/\/order%2042\.pdf\?access=/);
    await poll(() => pending(page).count()).toBe(0);
    await poll(() => page.locator("frontdesk-widget [aria-busy=true]").count()).toBe(0);
    expect(await page.locator("frontdesk-widget .msg.from-agent .bubble").count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, "attachment-pdf-sent-dark.png"), clip: WIDGET_CLIP });
    await page.context().close();
  });

  it("error: a file that is not an image or a PDF is refused with its reason in the chip, and cannot be sent", async () => {
    const page = await openWidget("/attach-refused");
    await page.locator("frontdesk-widget input[type=file]").setInputFiles({ name: "cat.png", mimeType: "image/png", buffer: Buffer.from("<!doctype html><script>alert(1)</script>") });
    await poll(() => pending(page).innerText()).toContain("Can't send: images and PDFs only");
    expect(await page.getByRole("button", { name: "Send", exact: true }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "attachment-refused.png"), clip: WIDGET_CLIP });
    await page.getByRole("button", { name: "Remove cat.png", exact: true }).click();
    await poll(() => pending(page).count()).toBe(0);
    await page.context().close();
  });
});
