import { join } from "node:path";
import type { Browser, BrowserContext, Page, WebSocketRoute } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { runAdminCommand } from "../../server/src/admin/run-admin-command.js";
import { adminOf } from "../../server/test/support/seed.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { modelAnswer, startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { OPERATOR_PASSWORD as PASSWORD, poll, seriousViolations } from "./support/console-browser.js";


/**
 * The console in a real browser, on the real service: an operator chooses a password from the
 * set-password link and signs in; a visitor on a host site asks for a person in the widget; the
 * conversation arrives in the inbox without a reload; the operator takes over, sees the visitor
 * typing, replies (the widget shows it; a colleague sees whose conversation it is), catches up
 * after losing the realtime connection, hands back to the assistant and closes it.
 */
describeNeeding("chromium-headless-shell")("the console's inbox, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let operatorContext: BrowserContext;
  let visitorContext: BrowserContext;
  let consolePage: Page;
  let visitorPage: Page;
  const policyViolations: string[] = [];
  const operatorEmail = "ana@acme-bikes.test";

  beforeAll(async () => {
    [stage, browser] = await Promise.all([startWidgetStage(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await stage?.close();
  });

  const widgetLog = () => visitorPage.getByRole("log", { name: "Conversation" });
  const transcript = () => consolePage.getByRole("log", { name: "Transcript" });

  it("happy: set a password, sign in; a visitor's request for a person arrives live (unread and notification counts, search, filters); take over by keyboard, the visitor's typing, a colleague sees whose it is and the typing, reply reaches the widget, catch-up after a lost connection, hand back, close; no serious axe violation, no CSP violation", async () => {
    const created = (await runAdminCommand(adminOf(stage.t.services), {
      command: "operator.create",
      workspaceId: stage.tenant.workspaceId,
      email: operatorEmail,
      name: "Ana",
      role: "agent",
    })) as { set_password_url: string };

    operatorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    consolePage = await operatorContext.newPage();
    const pageErrors: string[] = [];
    consolePage.on("pageerror", (error) => pageErrors.push(String(error)));
    onTestFailed(async () => {
      await consolePage.screenshot({ path: join(ARTIFACTS, "console-failure.png") });
      console.error("console page errors:", pageErrors, "at", consolePage.url());
    });
    consolePage.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });
    // The console's WebSocket goes through the test: `blocked` leaves new connections unanswered (a dead network).
    let blocked = false;
    const live: WebSocketRoute[] = [];
    const held: WebSocketRoute[] = [];
    await operatorContext.routeWebSocket(/\/app\//, (socket) => {
      if (blocked) held.push(socket);
      else {
        socket.connectToServer();
        live.push(socket);
      }
    });

    // The set-password link from `admin operator create`.
    expect(created.set_password_url).toMatch(new RegExp(`^${stage.serviceUrl}/console/set-password#token=`));
    await consolePage.goto(created.set_password_url);
    await consolePage.getByLabel("New password").fill(PASSWORD);
    await consolePage.getByLabel("Repeat it").fill(PASSWORD);
    await consolePage.screenshot({ path: join(ARTIFACTS, "console-set-password.png") });
    expect(await seriousViolations(consolePage)).toEqual([]);
    await consolePage.getByRole("button", { name: "Set password" }).click();
    await poll(() => consolePage.getByRole("heading", { name: "Password set" }).isVisible()).toBe(true);
    expect(consolePage.url()).not.toContain("token=");

    // Sign in.
    await consolePage.goto(`${stage.serviceUrl}/console`);
    await consolePage.getByLabel("E-mail").fill(operatorEmail);
    await consolePage.getByLabel("Password").fill("not-the-password");
    await consolePage.getByRole("button", { name: "Sign in" }).click();
    await poll(() => consolePage.getByRole("alert").textContent()).toMatch(/wrong/i);
    await consolePage.screenshot({ path: join(ARTIFACTS, "console-sign-in.png") });
    expect(await seriousViolations(consolePage)).toEqual([]);
    await consolePage.getByLabel("Password").fill(PASSWORD);
    await consolePage.getByRole("button", { name: "Sign in" }).click();
    await poll(() => consolePage.getByRole("heading", { name: "Inbox" }).isVisible()).toBe(true);
    expect(new URL(consolePage.url()).pathname).toBe("/console/inbox");
    await poll(() => consolePage.getByRole("status").textContent()).toContain("Live");
    // The session is the HttpOnly cookie, out of the page's reach: no script reads it, no storage holds it (pusher-js keeps only its transport cache).
    const [sessionCookie] = (await operatorContext.cookies()).filter((cookie) => cookie.name === "frontdesk_console_session");
    expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/api/v1/console" });
    const stored = await consolePage.evaluate(() => ({ document: document.cookie, entries: [...Object.entries(localStorage), ...Object.entries(sessionStorage)] }));
    expect(stored.document).toBe("");
    expect(stored.entries.map(([key]) => key)).toEqual(stored.entries.map(([key]) => key).filter((key) => key.startsWith("pusherTransport")));
    expect(JSON.stringify(stored.entries)).not.toContain(sessionCookie!.value);
    const inboxList = consolePage.getByRole("list", { name: /^Conversations/ });
    await poll(() => consolePage.getByText("No conversations here.").isVisible()).toBe(true);

    // A visitor asks for a person in the widget.
    visitorContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    visitorPage = await visitorContext.newPage();
    await visitorPage.goto(stage.hostPage("/pricing"));
    await visitorPage.locator("frontdesk-widget .launcher").click();
    await poll(() => visitorPage.getByRole("textbox", { name: "Message" }).isEnabled()).toBe(true);
    // A cited answer, then a low-confidence one offering a person, which the visitor accepts.
    stage.model.respondWith(modelAnswer(["Orders over 50 euros ship for free [1]."]));
    await visitorPage.getByRole("textbox", { name: "Message" }).fill("Is shipping free?");
    await visitorPage.keyboard.press("Enter");
    await poll(() => widgetLog().textContent()).toContain("Orders over 50 euros ship for free.");
    await poll(() => widgetLog().locator('[aria-busy="true"]').count()).toBe(0);
    stage.model.respondWith(modelAnswer(["[0] I'm not sure about that. I can connect you with a person from the team."]));
    await visitorPage.getByRole("textbox", { name: "Message" }).fill("Can I bring my dog to the test ride?");
    await visitorPage.keyboard.press("Enter");
    const offer = widgetLog().getByRole("button", { name: "Talk to a person" });
    await poll(() => offer.isVisible()).toBe(true);
    await offer.click();
    // Ana is online (the console joined the operators' presence): no e-mail form, the visitor waits.
    await poll(() => widgetLog().textContent()).toMatch(/Waiting for a person/i);
    expect(await visitorPage.getByRole("textbox", { name: "Your e-mail" }).count()).toBe(0);

    // It arrives in the inbox without a reload, awaiting a human.
    const row = inboxList.getByRole("listitem").first();
    await poll(() => row.textContent()).toContain("Awaiting a human");
    // The visitor's two questions are unread; the navigation counts the request for a person.
    await poll(() => row.getByLabel("2 unread").isVisible()).toBe(true);
    const inboxLink = consolePage.getByRole("navigation", { name: "Console" }).getByRole("link", { name: /^Inbox/ });
    await poll(() => inboxLink.textContent()).toBe("Inbox 1 awaiting you");
    // Screen readers hear it too.
    await poll(() => consolePage.locator('[aria-live="polite"]', { hasText: "A visitor asks for a person" }).count()).toBe(1);
    await consolePage.screenshot({ path: join(ARTIFACTS, "console-inbox-live.png") });
    expect(await seriousViolations(consolePage)).toEqual([]);
    // Search finds it by a word of the visitor's, and not by a word nobody wrote.
    const search = consolePage.getByRole("searchbox", { name: "Search messages" });
    await search.fill("zeppelin");
    await poll(() => consolePage.getByText("No conversation matches these words.").isVisible()).toBe(true);
    await search.fill("dog");
    await poll(() => inboxList.getByRole("listitem").count()).toBe(1);
    expect(new URL(consolePage.url()).searchParams.get("q")).toBe("dog");
    await search.fill("");
    await poll(() => new URL(consolePage.url()).searchParams.get("q")).toBe(null);
    await consolePage.getByRole("navigation", { name: "Filters" }).getByRole("link", { name: "Awaiting a human" }).click();
    await poll(() => inboxList.getByRole("listitem").count()).toBe(1);

    // Open it: the system event is in the transcript; take over.
    await row.getByRole("link").click();
    await poll(() => consolePage.getByRole("heading", { level: 2 }).textContent()).toMatch(/^Visitor /);
    await poll(() => transcript().textContent()).toMatch(/Waiting for a person/i);
    // Opening it reads the notification.
    await poll(() => inboxLink.textContent()).toBe("Inbox");
    // The assistant's answers: the cited one with its source, the unsure one marked.
    const cited = transcript().locator(".from-bot", { hasText: "Orders over 50 euros ship for free" });
    expect(await cited.getByRole("list", { name: "Sources" }).getByRole("link").count()).toBeGreaterThanOrEqual(1);
    expect(await cited.getByText("Low confidence").count()).toBe(0);
    expect(await transcript().locator(".from-bot", { hasText: "I'm not sure about that" }).getByText("Low confidence").count()).toBe(1);
    // By keyboard: Enter on "Take over"; the reply box then has the focus.
    await consolePage.getByRole("button", { name: "Take over" }).focus();
    await consolePage.keyboard.press("Enter");
    const reply = consolePage.getByRole("textbox", { name: "Reply to the visitor" });
    await poll(() => reply.isVisible()).toBe(true);
    await poll(() => reply.evaluate((element) => element === document.activeElement)).toBe(true);
    await poll(() => transcript().textContent()).toContain("Ana joined the conversation");
    await poll(() => widgetLog().textContent()).toMatch(/Ana joined/);

    // The visitor types: the console shows it live; their message arrives live.
    await visitorPage.getByRole("textbox", { name: "Message" }).pressSequentially("Do you rent tandems", { delay: 20 });
    await poll(() => consolePage.getByText("The visitor is typing…").isVisible()).toBe(true);
    await consolePage.screenshot({ path: join(ARTIFACTS, "console-visitor-typing.png") });
    await visitorPage.keyboard.press("Enter");
    await poll(() => transcript().locator(".from-visitor", { hasText: "Do you rent tandems" }).count()).toBe(1);

    // Ana replies: the widget shows it with her name; the reply box empties.
    // A colleague, Bea, opens the same conversation: she sees it is Ana's, her reply box is disabled, and she sees Ana typing.
    const bea = (await runAdminCommand(adminOf(stage.t.services), {
      command: "operator.create",
      workspaceId: stage.tenant.workspaceId,
      email: "bea@acme-bikes.test",
      name: "Bea",
      role: "agent",
    })) as { id: string };
    await runAdminCommand(adminOf(stage.t.services), { command: "operator.set-password", operatorId: bea.id, password: PASSWORD });
    const colleagueContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const colleague = await colleagueContext.newPage();
    await colleague.goto(consolePage.url());
    await colleague.getByLabel("E-mail").fill("bea@acme-bikes.test");
    await colleague.getByLabel("Password").fill(PASSWORD);
    await colleague.getByRole("button", { name: "Sign in" }).click();
    await poll(() => colleague.getByText("Ana has this conversation.").isVisible()).toBe(true);
    expect(await colleague.getByRole("textbox", { name: "Reply to the visitor" }).isDisabled()).toBe(true);
    expect(await colleague.getByRole("button", { name: "Take over" }).count()).toBe(0);
    // Her view is subscribed to the conversation's channel (from now on its events reach her).
    await poll(() => colleague.getByRole("log", { name: "Transcript" }).getAttribute("data-live")).toBe("true");

    await reply.focus();
    await consolePage.keyboard.type("Yes! Tandems are 40 euros a day.");
    await poll(() => colleague.getByText("Ana is typing…").isVisible()).toBe(true);
    await colleague.screenshot({ path: join(ARTIFACTS, "console-colleague-view.png") });
    expect(await seriousViolations(colleague)).toEqual([]);
    await consolePage.keyboard.press("Enter");
    await poll(() => colleague.getByRole("log", { name: "Transcript" }).getByText("Yes! Tandems are 40 euros a day.").count()).toBe(1);
    await colleagueContext.close();
    await poll(() => reply.inputValue()).toBe("");
    await poll(() => widgetLog().locator(".msg", { hasText: "Tandems are 40 euros a day." }).count()).toBe(1);
    expect(await widgetLog().locator(".msg", { hasText: "Tandems are 40 euros a day." }).locator(".author").textContent()).toBe("Ana");
    expect(await transcript().getByText("Yes! Tandems are 40 euros a day.").count()).toBe(1);
    await consolePage.screenshot({ path: join(ARTIFACTS, "console-conversation.png") });
    expect(await seriousViolations(consolePage)).toEqual([]);

    // The console's connection drops and cannot come back; the visitor writes meanwhile.
    blocked = true;
    for (const socket of live) await socket.close({ code: 4200, reason: "network lost" });
    await poll(() => held.length).toBeGreaterThanOrEqual(1);
    await poll(() => consolePage.getByRole("status").textContent()).not.toContain("Live");
    await visitorPage.getByRole("textbox", { name: "Message" }).fill("And helmets for two?");
    await visitorPage.keyboard.press("Enter");
    await poll(async () => Number((await stage.t.services.db.query<{ n: string }>(`SELECT count(*) AS n FROM messages WHERE content = 'And helmets for two?'`)).rows[0]?.n)).toBe(1);
    expect(await transcript().getByText("And helmets for two?").count()).toBe(0);
    // Back: the console resubscribes and reads what it missed by seq, once.
    blocked = false;
    // The held attempts are told to reconnect at once (4200): the next one reaches the server.
    for (const socket of held.splice(0)) await socket.close({ code: 4200, reason: "network back" });
    await poll(() => transcript().getByText("And helmets for two?").count()).toBe(1);
    await poll(() => consolePage.getByRole("status").textContent()).toContain("Live");

    // Hand back: the widget says the assistant is back; the console shows the conversation with the bot.
    await consolePage.getByRole("button", { name: "Hand back to the assistant" }).click();
    await poll(() => widgetLog().textContent()).toMatch(/The assistant is back/);
    await poll(() => consolePage.getByRole("button", { name: "Take over" }).isVisible()).toBe(true);
    expect(await consolePage.getByRole("textbox", { name: "Reply to the visitor" }).count()).toBe(0);
    await poll(() => transcript().textContent()).toContain("The assistant is back");

    // Read while open: in the list of open conversations it has no unread count left.
    await consolePage.getByRole("navigation", { name: "Filters" }).getByRole("link", { name: "All open" }).click();
    await poll(() => inboxList.getByRole("listitem").count()).toBe(1);
    await poll(() => row.textContent()).toContain("Bot");
    await poll(() => row.getByLabel(/unread/).count()).toBe(0);

    // Tablet width, and dark mode.
    await consolePage.setViewportSize({ width: 820, height: 1180 });
    await consolePage.screenshot({ path: join(ARTIFACTS, "console-tablet.png") });
    expect(await seriousViolations(consolePage)).toEqual([]);
    await consolePage.setViewportSize({ width: 1280, height: 800 });
    await consolePage.emulateMedia({ colorScheme: "dark" });
    await consolePage.screenshot({ path: join(ARTIFACTS, "console-dark.png") });
    expect(await seriousViolations(consolePage)).toEqual([]);

    // Close: the visitor is told, the conversation moves to the Closed filter, the focus goes to its title.
    await consolePage.emulateMedia({ colorScheme: "light" });
    await consolePage.getByRole("button", { name: "Close" }).click();
    await poll(() => consolePage.getByText("This conversation is closed.", { exact: false }).isVisible()).toBe(true);
    await poll(() => consolePage.getByRole("heading", { level: 2 }).evaluate((element) => element === document.activeElement)).toBe(true);
    await poll(() => widgetLog().textContent()).toContain("Conversation closed");
    await consolePage.getByRole("navigation", { name: "Filters" }).getByRole("link", { name: "Closed" }).click();
    await poll(() => inboxList.getByRole("listitem").count()).toBe(1);
    await poll(() => row.textContent()).toContain("Closed");

    expect(policyViolations).toEqual([]);
  }, 120_000);

  it("security: signing out ends the session (a reload shows the sign-in); a session ended elsewhere (the password set again) sends the console back to the sign-in at its next request", async () => {
    const created = (await runAdminCommand(adminOf(stage.t.services), {
      command: "operator.create",
      workspaceId: stage.tenant.workspaceId,
      email: "cy@acme-bikes.test",
      name: "Cy",
      role: "agent",
    })) as { id: string };
    await runAdminCommand(adminOf(stage.t.services), { command: "operator.set-password", operatorId: created.id, password: PASSWORD });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const signIn = async () => {
      await page.getByLabel("E-mail").fill("cy@acme-bikes.test");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await poll(() => page.getByRole("heading", { name: "Inbox" }).isVisible()).toBe(true);
    };
    const sessionCookies = async () => (await context.cookies()).filter((cookie) => cookie.name === "frontdesk_console_session").length;
    try {
      // A deep link survives the sign-in.
      await page.goto(`${stage.serviceUrl}/console/inbox?filter=closed`);
      await signIn();
      expect(await page.getByRole("navigation", { name: "Filters" }).getByRole("link", { name: "Closed" }).getAttribute("aria-current")).toBe("true");
      expect(await sessionCookies()).toBe(1);

      await page.getByRole("button", { name: "Sign out" }).click();
      await poll(() => page.getByRole("heading", { name: "Sign in to the console" }).isVisible()).toBe(true);
      expect(await sessionCookies()).toBe(0);
      await page.reload();
      await poll(() => page.getByRole("heading", { name: "Sign in to the console" }).isVisible()).toBe(true);

      await signIn();
      await runAdminCommand(adminOf(stage.t.services), { command: "operator.set-password", operatorId: created.id, password: `${PASSWORD}-new` });
      // The next request answers 401: the click's, or one the console makes by itself before the click
      // (its realtime connection, closed when the sessions end, signs in again), after which the link is gone.
      const signInHeading = page.getByRole("heading", { name: "Sign in to the console" });
      await page
        .getByRole("navigation", { name: "Filters" })
        .getByRole("link", { name: "Bot" })
        .click({ timeout: 10_000 })
        .catch(async (error: unknown) => {
          if (!(await signInHeading.isVisible())) throw error;
        });
      await poll(() => signInHeading.isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
