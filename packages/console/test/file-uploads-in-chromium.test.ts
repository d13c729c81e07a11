import { join } from "node:path";
import type { Browser, FileChooser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { buildDocx, buildPdf } from "../../server/test/support/generated-files.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";

/** A real PNG (one pixel), to be named .pdf. */
const ONE_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** The stage's upload limit: small, so that a file over it is quick to make and to send. */
const UPLOAD_MAX_BYTES = 200_000;

const RETURNS_PAGES = Array.from({ length: 30 }, (_, index) =>
  index === 2
    ? "Refund timing. Once the warehouse has inspected the returned parcel, the refund reaches your card within seven banking days."
    : `Returns policy, part ${index + 1}. Pack the item in its original box, print the label from your account page and drop the parcel at any post office. ` +
      "Returns are free within thirty days of delivery for every item bought in our shops or online. ".repeat(24),
);

/**
 * The file chooser `act` opens. Playwright intercepts choosers once its listener is registered in
 * the browser, which can land after a key press sent at the same moment (the chooser then opens
 * unseen, a no-op when headless): a press that opened nothing is tried again, at most three times.
 */
async function fileChooserOpenedBy(page: Page, act: () => Promise<void>): Promise<FileChooser> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const opened = page.waitForEvent("filechooser", { timeout: 10_000 }).catch(() => null);
    await page.evaluate(() => null);
    await act();
    const chooser = await opened;
    if (chooser) return chooser;
  }
  throw new Error("no file chooser opened");
}

/**
 * Uploading files from the Knowledge screen, in Chromium (issue 32): a generated PDF and DOCX and
 * a PNG named .pdf chosen with the keyboard through the file picker, sent two at a time with a
 * progress bar each (the uploads slowed by the browser's network throttling, so that it is seen
 * moving); the PNG refused with the server's 415 reason beside it; a file over the upload limit
 * dropped on the drop zone and refused with its 413 reason; the PDF's and the DOCX's sources then
 * indexed and their documents listed under "What was indexed". axe on each state, light and dark.
 */
describeNeeding("chromium-headless-shell")("uploading files on the Knowledge screen, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage({ FRONTDESK_UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  it("happy and error: files chosen and dropped, progress per file, the server's reasons for refusals, the documents listed; no serious axe violation", async () => {
    const signedIn = await signedInOperator(browser, stage, { email: "ada@acme-bikes.test", name: "Ada", role: "admin" }, "/console/knowledge");
    const { page, context } = signedIn;
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-file-uploads-failure.png"), fullPage: true });
    });
    const uploads = page.getByRole("region", { name: "Upload files" });
    const chooser = uploads.getByRole("button", { name: "Choose files…" });
    await poll(() => chooser.count()).toBe(1);
    expect(await chooser.getAttribute("aria-describedby")).toBeTruthy();
    expect(await uploads.getByRole("radio", { name: "Curated answers" }).isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);

    const pdf = Buffer.from(await buildPdf(RETURNS_PAGES));
    const docx = Buffer.from(buildDocx([{ heading: "Servicing" }, { paragraph: "A yearly service costs forty-five euros and takes one working day." }, { table: [["Part", "Price"], ["Chain", "25 euros"]] }]));
    const png = Buffer.from(ONE_PIXEL_PNG, "base64");
    expect(pdf.length).toBeGreaterThan(25_000);
    expect(pdf.length).toBeLessThan(UPLOAD_MAX_BYTES);

    // Slow uploads down (about 8 kB/s) so that the PDF's progress is seen between 0 and 100 %.
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 8_000 });

    // The picker, opened from the keyboard.
    await chooser.focus();
    expect(await chooser.evaluate((element) => element === document.activeElement)).toBe(true);
    const picker = await fileChooserOpenedBy(page, () => page.keyboard.press("Enter"));
    expect(picker.isMultiple()).toBe(true);
    await picker.setFiles([
      { name: "Returns policy.pdf", mimeType: "application/pdf", buffer: pdf },
      { name: "Servicing guide.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", buffer: docx },
      { name: "brochure.pdf", mimeType: "application/pdf", buffer: png },
    ]);
    const list = uploads.getByRole("list", { name: "Uploads" });
    const pdfRow = list.getByRole("listitem", { name: "Returns policy.pdf" });
    const pdfProgress = pdfRow.getByRole("progressbar", { name: "Upload of Returns policy.pdf" });
    await poll(async () => Number(await pdfProgress.getAttribute("value")), 30_000).toBeGreaterThan(0);
    const midway = Number(await pdfProgress.getAttribute("value"));
    expect(midway).toBeLessThan(100);
    expect(await pdfProgress.getAttribute("aria-valuetext")).toMatch(/^\d+ %$/);
    expect(await list.getAttribute("aria-busy")).toBe("true");
    await uploads.screenshot({ path: join(ARTIFACTS, "console-file-uploads-progress.png") });
    expect(await seriousViolations(page)).toEqual([]);

    await poll(() => pdfRow.getAttribute("data-state"), 60_000).toBe("uploaded");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const docxRow = list.getByRole("listitem", { name: "Servicing guide.docx" });
    await poll(() => docxRow.getAttribute("data-state"), 60_000).toBe("uploaded");
    const pngRow = list.getByRole("listitem", { name: "brochure.pdf" });
    await poll(() => pngRow.getAttribute("data-state"), 60_000).toBe("failed");
    expect(await pngRow.locator(".upload-error").textContent()).toMatch(/^Not a kind of file Frontdesk reads: The file's content is image\/png; a file source takes PDF, DOCX/);
    expect(await pngRow.getAttribute("aria-describedby")).toBeTruthy();
    expect(await pdfRow.textContent()).toContain("Uploaded: it is being read and indexed below.");
    await poll(() => page.getByRole("status").filter({ hasText: /brochure\.pdf was not uploaded|uploaded/ }).count()).toBeGreaterThan(0);

    // A file over the limit, dropped on the zone.
    const dropped = await page.evaluateHandle((size) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(size).fill(97)], "handbook.txt", { type: "text/plain" }));
      return transfer;
    }, UPLOAD_MAX_BYTES + 20_000);
    await page.dispatchEvent('[data-testid="drop-zone"]', "dragover", { dataTransfer: dropped });
    await poll(() => page.locator(".drop-zone-active").count()).toBe(1);
    await page.dispatchEvent('[data-testid="drop-zone"]', "drop", { dataTransfer: dropped });
    const largeRow = list.getByRole("listitem", { name: "handbook.txt" });
    await poll(() => largeRow.getAttribute("data-state"), 60_000).toBe("failed");
    expect(await largeRow.locator(".upload-error").textContent()).toBe(
      `Too large: The file is larger than the upload limit of ${UPLOAD_MAX_BYTES} bytes (FRONTDESK_UPLOAD_MAX_BYTES).`,
    );
    expect(await page.locator(".drop-zone-active").count()).toBe(0);
    await poll(() => page.getByRole("status").filter({ hasText: "handbook.txt was not uploaded. Too large" }).count()).toBe(1);
    await uploads.screenshot({ path: join(ARTIFACTS, "console-file-uploads-refused.png") });
    expect(await seriousViolations(page)).toEqual([]);

    // The uploaded files are sources, indexed; their documents listed with their passages.
    const sources = page.getByRole("list", { name: "Sources" });
    for (const [name, text] of [
      ["Returns policy.pdf", "seven banking days"],
      ["Servicing guide.docx", "A yearly service costs forty-five euros"],
    ] as const) {
      // The source's own row (its document, listed inside it, bears the same name).
      const row = sources.locator(`:scope > li[aria-label="${name}"]`);
      await poll(() => row.getAttribute("data-status"), 120_000).toBe("indexed");
      expect(await row.locator(".knowledge-progress-words").textContent()).toBe("1 of 1 document indexed");
      await row.getByText(/^What was indexed \(1 document\)/).click();
      const documents = row.getByRole("list", { name: `Pages of ${name}` });
      const document = documents.getByRole("listitem", { name });
      await poll(() => document.count()).toBe(1);
      expect(await document.locator(".page-status").textContent()).toBe("Indexed");
      await row.screenshot({ path: join(ARTIFACTS, `console-file-uploads-indexed-${name.split(".").at(-1)}.png`) });
      await document.getByRole("button", { name: "Show text" }).click();
      await poll(() => document.locator(".page-text").textContent()).toContain(text);
      expect(await document.getByRole("list", { name: `Passages of ${name}` }).getByRole("listitem").count()).toBeGreaterThanOrEqual(1);
    }
    expect(await sources.getByRole("listitem", { name: "brochure.pdf" }).count()).toBe(0);
    expect(await sources.getByRole("listitem", { name: "handbook.txt" }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.emulateMedia({ colorScheme: "dark" });
    expect(await seriousViolations(page)).toEqual([]);
    await uploads.screenshot({ path: join(ARTIFACTS, "console-file-uploads-dark.png") });
    await page.setViewportSize({ width: 420, height: 900 });
    expect(await seriousViolations(page)).toEqual([]);
    await uploads.screenshot({ path: join(ARTIFACTS, "console-file-uploads-narrow.png") });
    expect(signedIn.pageErrors).toEqual([]);
    await context.close();
  }, 300_000);

  it("security: an operator with the agent role sees no upload zone", async () => {
    const signedIn = await signedInOperator(browser, stage, { email: "abe@acme-bikes.test", name: "Abe", role: "agent" }, "/console/knowledge");
    try {
      await poll(() => signedIn.page.getByRole("list", { name: "Sources" }).count(), 30_000).toBe(1);
      expect(await signedIn.page.getByRole("region", { name: "Upload files" }).count()).toBe(0);
    } finally {
      await signedIn.context.close();
    }
  }, 60_000);
});
