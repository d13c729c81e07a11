import { join } from "node:path";
import { pino } from "pino";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it, onTestFailed } from "vitest";
import { registerPushWorkers } from "../../server/src/push/register-push-workers.js";
import { LoopbackPushService } from "../../server/test/push/loopback-push-service.js";
import { describeNeeding } from "../../server/test/support/test-legs.js";
import { launchChromium } from "../../widget/test/support/browser.js";
import { startWidgetStage, type WidgetStage } from "../../widget/test/support/widget-stage.js";
import { ARTIFACTS } from "./support/artifacts.js";
import { poll, seriousViolations, signedInOperator } from "./support/console-browser.js";

/**
 * "Notifications on this device" in Chromium: the section's button, status and devices; the real
 * service worker registered at /console/push-worker.js; the server's alert, sent to a push service
 * on loopback that verifies and decrypts it; the same alert delivered to the service worker (CDP's
 * ServiceWorker.deliverPushMessage), which shows the notification; a click on it (a
 * notificationclick dispatched in the worker) opens the conversation in the console.
 *
 * Headless Chromium has no push service to subscribe with (its pushManager.subscribe needs the
 * browser vendor's), so the page's PushManager answers with a subscription whose endpoint and keys
 * are the loopback push service's: everything after the browser's subscribe call is real.
 */
describeNeeding("chromium")("notifications on this device, in Chromium", () => {
  let stage: WidgetStage;
  let browser: Browser;
  let workers: { close(): Promise<void> };
  const pushService = new LoopbackPushService();

  beforeAll(async () => {
    await pushService.start();
    [stage, browser] = await Promise.all([
      startWidgetStage({ FRONTDESK_PUSH_ALLOW_PRIVATE_NETWORKS: "true", FRONTDESK_PUSH_RETRY_BASE_MS: "1" }),
      launchChromium("browser"),
    ]);
    workers = await registerPushWorkers(stage.t.services, pino({ level: "silent" }));
  });
  afterAll(async () => {
    await workers?.close();
    await browser?.close();
    await stage?.close();
    await pushService.close();
  });

  it("happy: turn on (labelled button, status), an alert reaches the push service and the worker shows it, a click opens the conversation; turn off; no serious axe violation", async () => {
    const { context, page, pageErrors } = await signedInOperator(browser, stage, { email: "grace@acme-bikes.test", name: "Grace", role: "agent" }, "/console/settings");
    onTestFailed(async () => {
      await page.screenshot({ path: join(ARTIFACTS, "console-device-notifications-failure.png") });
      console.error("page errors:", pageErrors, "at", page.url());
    });
    await context.grantPermissions(["notifications"], { origin: stage.serviceUrl });
    const device = pushService.subscribe("/chromium");
    await context.addInitScript((subscription) => {
      // Kept across page loads, as a browser keeps its subscription.
      const subscribedKey = "test.push-subscribed";
      const fake = {
        endpoint: subscription.endpoint,
        expirationTime: null,
        toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys }),
        unsubscribe: async () => (localStorage.removeItem(subscribedKey), true),
      };
      PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
        if (!options?.userVisibleOnly || !options.applicationServerKey) throw new Error("subscribe needs userVisibleOnly and the VAPID key");
        localStorage.setItem(subscribedKey, "1");
        return fake as unknown as PushSubscription;
      };
      PushManager.prototype.getSubscription = async () => (localStorage.getItem(subscribedKey) ? (fake as unknown as PushSubscription) : null);
    }, { endpoint: device.endpoint, keys: device.keys });
    await page.reload();

    const section = page.getByRole("region", { name: "Notifications on this device" });
    const toggle = section.getByRole("button", { name: "Turn on notifications on this device" });
    await poll(() => toggle.isVisible()).toBe(true);
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    const status = section.getByRole("status");
    expect(await status.textContent()).toMatch(/^Off: /);
    expect(await toggle.evaluate((button) => document.getElementById(button.getAttribute("aria-describedby") ?? "")?.textContent)).toMatch(/^Off: /);
    expect(await seriousViolations(page)).toEqual([]);
    await section.screenshot({ path: join(ARTIFACTS, "console-device-notifications-off.png") });

    // By keyboard.
    await toggle.focus();
    await page.keyboard.press("Enter");
    await poll(() => status.textContent()).toMatch(/^On: /);
    const devices = section.getByRole("table", { name: "Your devices with notifications" });
    await poll(() => devices.getByRole("rowheader").allTextContents()).toEqual(["Chrome on Linux"]);
    expect(await section.getByRole("button", { name: "Turn off notifications on this device" }).getAttribute("aria-pressed")).toBe("true");
    const worker = context.serviceWorkers().find((candidate) => candidate.url().endsWith("/console/push-worker.js")) ?? (await context.waitForEvent("serviceworker"));
    expect(worker.url()).toBe(`${stage.serviceUrl}/console/push-worker.js`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await seriousViolations(page)).toEqual([]);
    await section.screenshot({ path: join(ARTIFACTS, "console-device-notifications-on-dark.png") });
    await page.emulateMedia({ colorScheme: "light" });
    await section.screenshot({ path: join(ARTIFACTS, "console-device-notifications-on.png") });

    // A visitor asks for a person: the push service receives the alert, VAPID-signed, and decrypts it.
    const init = await stage.t.app.inject({ method: "POST", url: "/api/v1/widget/init", headers: { origin: stage.site.origin }, payload: { agent_id: stage.tenant.agentId, page_url: stage.site.url("/") } });
    const { jwt, conversation_id: conversationId } = init.json().data;
    const reason = "<img src=x onerror=alert(1)> Where is my order?";
    const asked = await stage.t.app.inject({ method: "POST", url: "/api/v1/widget/request-human", headers: { authorization: `Bearer ${jwt}` }, payload: { reason } });
    expect(asked.statusCode, asked.body).toBe(200);
    await poll(() => pushService.at("/chromium").length).toBe(1);
    expect(pushService.rejected).toEqual([]);
    const alert = pushService.at("/chromium")[0]!.alert;
    expect(alert).toMatchObject({ body: reason, url: `${stage.serviceUrl}/console/inbox/${conversationId}`, tag: `conversation-${conversationId}` });

    // The same alert, delivered to the real service worker: it shows the notification, text as text.
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on("ServiceWorker.workerRegistrationUpdated", (event: { registrations: { registrationId: string; scopeURL: string }[] }) => registrations.push(...event.registrations));
    await cdp.send("ServiceWorker.enable");
    await poll(() => registrations.some((registration) => registration.scopeURL === `${stage.serviceUrl}/console/`)).toBe(true);
    const registrationId = registrations.find((registration) => registration.scopeURL === `${stage.serviceUrl}/console/`)!.registrationId;
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: stage.serviceUrl, registrationId, data: JSON.stringify(alert) });
    const shown = () =>
      worker.evaluate(async () =>
        (await (self as unknown as ServiceWorkerGlobalScopeLike).registration.getNotifications()).map((notification) => ({
          title: notification.title,
          body: notification.body,
          tag: notification.tag,
          data: notification.data,
        })),
      );
    await poll(shown).toEqual([{ title: "A visitor is waiting for a person", body: reason, tag: `conversation-${conversationId}`, data: { url: alert.url } }]);
    // A newer alert of the same conversation replaces it.
    await cdp.send("ServiceWorker.deliverPushMessage", { origin: stage.serviceUrl, registrationId, data: JSON.stringify({ ...alert, body: "Still waiting" }) });
    await poll(async () => (await shown()).map((notification) => notification.body)).toEqual(["Still waiting"]);

    // A click on it: the open console goes to the conversation.
    await worker.evaluate(async () => {
      const scope = self as unknown as ServiceWorkerGlobalScopeLike;
      const [notification] = await scope.registration.getNotifications();
      scope.dispatchEvent(new (scope as unknown as { NotificationEvent: new (type: string, init: { notification: unknown }) => Event }).NotificationEvent("notificationclick", { notification }));
    });
    await poll(() => page.url()).toBe(`${stage.serviceUrl}/console/inbox/${conversationId}`);
    expect(await worker.evaluate(async () => (await (self as unknown as ServiceWorkerGlobalScopeLike).registration.getNotifications()).length)).toBe(0);

    // Turn off: the device is deleted on the server.
    await page.goto(`${stage.serviceUrl}/console/settings`);
    await poll(() => section.getByRole("button", { name: "Turn off notifications on this device" }).isVisible()).toBe(true);
    await section.getByRole("button", { name: "Turn off notifications on this device" }).click();
    await poll(() => section.getByRole("status").textContent()).toMatch(/^Off: /);
    await poll(() => devices.count()).toBe(0);
    expect((await stage.t.services.db.query(`SELECT count(*)::int AS count FROM push_subscriptions`)).rows).toEqual([{ count: 0 }]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

interface ServiceWorkerGlobalScopeLike {
  registration: { getNotifications(): Promise<{ title: string; body: string; tag: string; data: unknown }[]> };
  dispatchEvent(event: Event): boolean;
}
