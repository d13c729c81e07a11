import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../server/src/admin/run-admin-command.js";
import { adminOf } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "./support/browser.js";
import { ARTIFACTS, modelAnswer, startWidgetStage, type WidgetStage } from "./support/widget-stage.js";

/** Waits for what the browser shows: a bound for a stuck page, not a speed requirement. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 20_000, interval: 25 });

/** The widget's corner of a 1280×800 page. */
const WIDGET_CLIP = { x: 850, y: 92, width: 430, height: 708 };

interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

declare global {
  interface Window {
    axe?: { run(context: Element, options: object): Promise<{ violations: AxeResult[]; passes: AxeResult[] }> };
  }
}
interface AxeResult {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

describeNeeding("chromium-headless-shell")("the widget's accessibility, languages, dark mode and small screens, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let axeSource: string;
  /** An agent whose language_default is German. */
  let germanAgentId: string;

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
    axeSource = await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
    const german = (await runAdminCommand(adminOf(stage.t.services), {
      command: "agent.create",
      workspaceId: stage.tenant.workspaceId,
      name: "Acme Hilfe",
      origins: [stage.site.origin],
      vertical: "general",
      draft: false,
      personaName: "Ada",
      tone: "warm and concise",
      primaryColor: "#112233",
      starterPrompts: ["Wo ist meine Bestellung?"],
      language: "de",
    })) as { id: string };
    germanAgentId = german.id;
    // A host page that follows the dark scheme too (for the screenshot; the widget follows the visitor's setting either way).
    stage.site.routes.set("/dark-page.css", (_request, response) => {
      response.writeHead(200, { "content-type": "text/css" });
      response.end("html { background: #0f172a; color: #e2e8f0 }");
    });
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });
  afterEach(async () => {
    await context?.close();
  });

  async function openPage(url: string, options: BrowserContextOptions = {}): Promise<Page> {
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US", ...options });
    page = await context.newPage();
    await page.goto(url);
    await poll(() => launcher().count()).toBe(1);
    return page;
  }

  const launcher = () => page.locator("frontdesk-widget .launcher");
  const panel = () => page.locator("frontdesk-widget .panel");
  const lastAnswer = () => page.locator("frontdesk-widget .msg.from-agent").last();
  /** What has focus inside the widget's shadow root, by accessible name or text. */
  const focused = () =>
    page.evaluate(() => {
      const active = document.querySelector("frontdesk-widget")?.shadowRoot?.activeElement;
      return active ? active.getAttribute("aria-label") || active.textContent?.trim() || active.tagName.toLowerCase() : null;
    });
  /** Once the panel's fade-in has finished. */
  const settled = () => page.evaluate(() => Promise.all(document.querySelector("frontdesk-widget")!.shadowRoot!.getAnimations().map((animation) => animation.finished)).then(() => true));
  const pageFocusIsInWidget = () => page.evaluate(() => document.activeElement?.tagName === "FRONTDESK-WIDGET");

  /** axe-core on the widget's element (its shadow root included): the serious and critical violations. */
  async function seriousViolations(): Promise<AxeFinding[]> {
    if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ content: axeSource });
    return page.evaluate(async () => {
      // After the panel's fade-in: half-transparent text mid-animation is not what the visitor reads.
      await Promise.all(document.querySelector("frontdesk-widget")!.shadowRoot!.getAnimations().map((animation) => animation.finished));
      const results = await window.axe!.run(document.querySelector("frontdesk-widget")!, { resultTypes: ["violations", "passes"] });
      // The check reaches into the shadow root: its passes name elements there (a target [[host, inner]]).
      if (!results.passes.some((rule) => rule.nodes.some((node) => node.target.some((part) => Array.isArray(part))))) throw new Error("axe did not look inside the shadow root");
      return results.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map((violation) => ({ id: violation.id, impact: violation.impact ?? null, help: violation.help, targets: violation.nodes.map((node) => JSON.stringify(node.target)) }));
    });
  }

  async function askAndWait(question: string, answer: string): Promise<void> {
    stage.model.respondWith(modelAnswer([answer]));
    await page.getByRole("textbox").fill(question);
    await page.keyboard.press("Enter");
    await poll(() => page.locator("frontdesk-widget .msg.from-visitor").last().textContent()).toBe(question);
    await poll(() => lastAnswer().getAttribute("aria-busy")).toBe(null);
    await poll(() => page.locator("frontdesk-widget .send").isDisabled()).toBe(true);
  }

  it("happy: axe-core finds no serious or critical violation in the widget closed, open, and with an answer and its citation", async () => {
    await openPage(stage.hostPage("/axe"));
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "closed.png") });
    await launcher().click();
    await poll(() => page.getByRole("dialog", { name: "Ada" }).isVisible()).toBe(true);
    expect(await seriousViolations()).toEqual([]);
    await askAndWait("How long does delivery take?", "Standard delivery takes **three to five working days** [1].");
    expect(await lastAnswer().locator("a.chip").count()).toBe(1);
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "light-answer-widget.png"), clip: WIDGET_CLIP });
    await page.keyboard.press("Escape");
    await poll(() => panel().count()).toBe(0);
    expect(await seriousViolations()).toEqual([]);
  });

  it("happy: with the keyboard alone: Tab reaches the launcher, Enter opens, a starter prompt is asked, Tab and Shift+Tab stay inside the dialog, Escape closes and focus returns to the launcher", async () => {
    await openPage(stage.hostPage("/keyboard"));
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Open chat");
    await page.keyboard.press("Enter");
    await poll(() => page.getByRole("dialog", { name: "Ada" }).isVisible()).toBe(true);
    await poll(() => focused()).toBe("Message");
    // Tab goes round the dialog's controls and the launcher (now "Close chat"), never out to the page.
    const seen: (string | null)[] = [];
    for (let step = 0; step < 16; step += 1) {
      await page.keyboard.press("Tab");
      expect(await pageFocusIsInWidget()).toBe(true);
      seen.push(await focused());
    }
    expect(seen).toEqual(expect.arrayContaining(["Message", "Where is my order?", "Do you ship abroad?", "Close chat", "Powered by Frontdesk"]));
    // …in a round that repeats: the last control leads back to the first.
    const round = seen.findIndex((_label, period) => period > 2 && seen.every((label, index) => index + period >= seen.length || seen[index + period] === label));
    expect(round).toBeGreaterThan(2);
    expect(round).toBeLessThanOrEqual(8);
    // Shift+Tab from the dialog's first control goes to the last, the launcher; Tab from there comes back.
    const first = page.locator("frontdesk-widget .head button").first();
    await first.focus();
    const firstLabel = await focused();
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.querySelector("frontdesk-widget")?.shadowRoot?.activeElement?.className)).toBe("launcher");
    await page.keyboard.press("Tab");
    expect(await focused()).toBe(firstLabel);
    // A starter prompt, reached by Tab and pressed with Enter, asks its question.
    while ((await focused()) !== "Where is my order?") await page.keyboard.press("Tab");
    stage.model.respondWith(modelAnswer(["Standard delivery takes three to five working days [1]."]));
    await page.keyboard.press("Enter");
    await poll(() => lastAnswer().getAttribute("aria-busy")).toBe(null);
    expect(await lastAnswer().locator(".bubble").textContent()).toBe("Standard delivery takes three to five working days.");
    // The answer's citation is a link in the Tab order.
    const stops: (string | null)[] = [];
    for (let step = 0; step < 8; step += 1) {
      await page.keyboard.press("Tab");
      stops.push(await page.evaluate(() => document.querySelector("frontdesk-widget")?.shadowRoot?.activeElement?.className ?? null));
    }
    expect(stops).toContain("chip");
    await page.keyboard.press("Escape");
    await poll(() => panel().count()).toBe(0);
    expect(await focused()).toBe("Open chat with Ada");
    expect(await launcher().getAttribute("aria-expanded")).toBe("false");
  });

  it("happy: dark mode follows prefers-color-scheme: dark surfaces, the agent's colour with its contrasting text, and no contrast violation", async () => {
    await openPage(stage.hostPage("/dark", { stylesheets: ["/dark-page.css"] }), { colorScheme: "dark" });
    await launcher().click();
    await poll(() => page.getByRole("dialog", { name: "Ada" }).isVisible()).toBe(true);
    await askAndWait("How long does delivery take?", "Standard delivery takes **three to five working days** [1].");
    expect(await lastAnswer().locator("a.chip").count()).toBe(1);
    const colours = await page.evaluate(() => {
      const root = document.querySelector("frontdesk-widget")!.shadowRoot!;
      const style = (selector: string) => getComputedStyle(root.querySelector(selector)!);
      return {
        panel: [style(".panel").backgroundColor, style(".panel").color],
        head: [style(".head").backgroundColor, style(".head").color],
        visitor: style(".from-visitor .bubble").backgroundColor,
        answer: style(".from-agent .bubble").backgroundColor,
      };
    });
    expect(colours).toEqual({
      panel: ["rgb(17, 24, 39)", "rgb(243, 244, 246)"],
      head: ["rgb(17, 34, 51)", "rgb(255, 255, 255)"],
      visitor: "rgb(17, 34, 51)",
      answer: "rgb(31, 41, 55)",
    });
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "dark.png") });
    await page.screenshot({ path: join(ARTIFACTS, "dark-widget.png"), clip: WIDGET_CLIP });
    // The header menu (the handoff's) is dark too.
    await page.getByRole("button", { name: "More options" }).click();
    const menu = page.locator("frontdesk-widget .menu");
    await poll(() => menu.isVisible()).toBe(true);
    expect(await menu.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe("rgb(31, 41, 55)");
    expect(await seriousViolations()).toEqual([]);
    await page.keyboard.press("Escape");
  });

  it("happy: prefers-reduced-motion: reduce removes the panel's animation and the launcher's transition", async () => {
    await openPage(stage.hostPage("/motion"));
    await launcher().click();
    await poll(() => panel().isVisible()).toBe(true);
    const motion = () =>
      page.evaluate(() => {
        const root = document.querySelector("frontdesk-widget")!.shadowRoot!;
        return [getComputedStyle(root.querySelector(".panel")!).animationName, getComputedStyle(root.querySelector(".launcher")!).transitionDuration];
      });
    expect(await motion()).toEqual(["fd-in", "0.15s"]);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.keyboard.press("Escape");
    await launcher().click();
    await poll(() => panel().isVisible()).toBe(true);
    expect(await motion()).toEqual(["none", "0s"]);
  });

  it('happy: data-language="fr": the launcher is named in French before the bundle loads, and the whole widget speaks French', async () => {
    await openPage(stage.hostPage("/fr", { attributes: { language: "fr" } }));
    expect(await launcher().getAttribute("aria-label")).toBe("Ouvrir le chat");
    await launcher().click();
    const dialog = page.getByRole("dialog", { name: "Ada" });
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await page.locator("frontdesk-widget .fd").evaluate((element) => [element.getAttribute("lang"), element.getAttribute("dir")])).toEqual(["fr", "ltr"]);
    expect(await page.locator("frontdesk-widget .log .bubble").first().textContent()).toBe("Bonjour, je suis Ada. Comment puis-je vous aider ?");
    expect(await page.getByRole("textbox", { name: "Message" }).getAttribute("placeholder")).toBe("Écrivez un message…");
    expect(await page.getByRole("button", { name: "Envoyer" }).count()).toBe(1);
    expect(await launcher().getAttribute("aria-label")).toBe("Fermer le chat");
    expect(await page.getByRole("log", { name: "Conversation" }).getAttribute("aria-live")).toBe("polite");
    await askAndWait("Do you deliver on Sundays?", "Nous ne livrons pas le **dimanche** [1].");
    expect(await lastAnswer().getByRole("list", { name: "Sources" }).count()).toBe(1);
    expect(await seriousViolations()).toEqual([]);
    await page.keyboard.press("Escape");
    await poll(() => launcher().getAttribute("aria-label")).toBe("Ouvrir le chat avec Ada");
  });

  it("happy: without data-language, the agent's language_default decides once init has answered; before it, the browser's language names the launcher", async () => {
    await openPage(stage.hostPage("/de", { attributes: { "agent-id": germanAgentId } }), { locale: "nl-NL" });
    expect(await launcher().getAttribute("aria-label")).toBe("Chat openen");
    await launcher().click();
    await poll(() => page.getByRole("button", { name: "Chat schließen" }).count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator("frontdesk-widget .fd").getAttribute("lang")).toBe("de");
    expect(await page.getByRole("textbox", { name: "Nachricht" }).getAttribute("placeholder")).toBe("Nachricht schreiben…");
    expect(await page.getByRole("button", { name: "Wo ist meine Bestellung?" }).isVisible()).toBe(true);
  });

  it('happy: data-language="ar" lays the widget out right to left (dir="rtl", mirrored header, bubbles and send icon) with Arabic words, and axe finds nothing serious', async () => {
    await openPage(stage.hostPage("/ar", { attributes: { language: "ar" } }));
    expect(await launcher().getAttribute("aria-label")).toBe("فتح المحادثة");
    await launcher().click();
    await poll(() => page.getByRole("dialog", { name: "Ada" }).isVisible()).toBe(true);
    expect(await page.locator("frontdesk-widget .fd").evaluate((element) => [element.getAttribute("lang"), element.getAttribute("dir")])).toEqual(["ar", "rtl"]);
    expect(await page.getByRole("textbox", { name: "الرسالة" }).getAttribute("placeholder")).toBe("اكتب رسالة…");
    await askAndWait("متى يصل طلبي؟", "يصل الطلب خلال **ثلاثة إلى خمسة أيام عمل** [1].");
    const box = async (selector: string) => (await page.locator(`frontdesk-widget ${selector}`).last().boundingBox())!;
    const [panelBox, avatar, close, visitor, answer] = await Promise.all([box(".panel"), box(".avatar"), box(".head .close"), box(".from-visitor .bubble"), box(".from-agent .bubble")]);
    // The avatar starts the header on the right, the close button ends it on the left.
    expect(avatar.x).toBeGreaterThan(close.x);
    expect(avatar.x + avatar.width).toBeGreaterThan(panelBox.x + panelBox.width - 40);
    // The visitor's bubble is on the left, the answer's on the right.
    expect(visitor.x).toBeLessThan(panelBox.x + 40);
    expect(answer.x + answer.width).toBeGreaterThan(panelBox.x + panelBox.width - 40);
    expect(await page.locator("frontdesk-widget .send svg").evaluate((element) => getComputedStyle(element).transform)).toBe("matrix(-1, 0, 0, 1, 0, 0)");
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "rtl.png") });
    await page.screenshot({ path: join(ARTIFACTS, "rtl-widget.png"), clip: WIDGET_CLIP });
    // The header menu opens inside the panel, its items aligned right.
    await page.getByRole("button", { name: "خيارات أخرى" }).click();
    await poll(() => page.locator("frontdesk-widget .menu").isVisible()).toBe(true);
    const menu = await box(".menu");
    expect(menu.x).toBeGreaterThanOrEqual(panelBox.x);
    expect(menu.x + menu.width).toBeLessThanOrEqual(panelBox.x + panelBox.width);
    expect(await page.locator("frontdesk-widget .menu button").first().evaluate((element) => getComputedStyle(element).textAlign)).toBe("right");
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "rtl-menu-widget.png"), clip: WIDGET_CLIP });
    await page.keyboard.press("Escape");
  });

  it("happy: at 390×844 the open widget fills the screen, the page behind does not scroll, it works with the keyboard, and the page's own overflow comes back exactly", async () => {
    const tall = '<div style="height:3000px">tall page</div>';
    const pageStyle = "overflow-y: scroll; scroll-behavior: auto;";
    await openPage(stage.hostPage("/mobile", { body: tall, before: `document.documentElement.setAttribute("style", ${JSON.stringify(pageStyle)});` }), {
      viewport: { width: 390, height: 844 },
      hasTouch: true,
    });
    await page.evaluate(() => window.scrollTo(0, 400));
    await poll(() => page.evaluate(() => window.scrollY)).toBe(400);
    await page.screenshot({ path: join(ARTIFACTS, "mobile-closed.png") });
    await page.keyboard.press("Tab");
    expect(await focused()).toBe("Open chat");
    await page.keyboard.press("Enter");
    await poll(() => page.getByRole("dialog", { name: "Ada" }).isVisible()).toBe(true);
    await settled();
    expect(await panel().boundingBox()).toEqual({ x: 0, y: 0, width: 390, height: 844 });
    // The panel has its own close button; the launcher would cover the composer.
    expect(await launcher().isVisible()).toBe(false);
    expect(await page.evaluate(() => [getComputedStyle(document.documentElement).overflowY, getComputedStyle(document.body).overflowY])).toEqual(["hidden", "hidden"]);
    await page.mouse.move(195, 30);
    await page.mouse.wheel(0, 600);
    await page.keyboard.press("PageDown");
    expect(await page.evaluate(() => window.scrollY)).toBe(400);
    // The keyboard alone: the focus starts in the message box and stays in the dialog.
    await poll(() => focused()).toBe("Message");
    await askAndWait("How long does delivery take?", "Standard delivery takes three to five working days [1].");
    for (let step = 0; step < 8; step += 1) {
      await page.keyboard.press("Tab");
      expect(await pageFocusIsInWidget()).toBe(true);
    }
    expect(await seriousViolations()).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, "mobile.png") });
    // Grown past 640 px while open, the page scrolls again; back below, it is locked again.
    await page.setViewportSize({ width: 800, height: 844 });
    await poll(() => page.evaluate(() => document.documentElement.getAttribute("style"))).toBe(pageStyle);
    await page.setViewportSize({ width: 390, height: 844 });
    await poll(() => page.evaluate(() => getComputedStyle(document.documentElement).overflowY)).toBe("hidden");
    await page.keyboard.press("Escape");
    await poll(() => panel().count()).toBe(0);
    expect(await focused()).toBe("Open chat with Ada");
    expect(await page.evaluate(() => [document.documentElement.getAttribute("style"), document.body.getAttribute("style")])).toEqual([pageStyle, null]);
    expect(await page.evaluate(() => window.scrollY)).toBe(400);
  });
});
