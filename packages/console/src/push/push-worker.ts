/**
 * The console's service worker (served at /console/push-worker.js, scope /console/): shows a
 * system notification for each Web Push alert, even with the console closed, and opens or
 * focuses the conversation when it is clicked. The alert's text is the visitor's: it is given to
 * the notification as text (a notification shows no markup). One notification per conversation
 * (its tag): a newer alert replaces an older one.
 */

interface PushAlert {
  title: string;
  body: string;
  url: string;
  tag: string;
}

interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}

interface WorkerScope {
  registration: { showNotification(title: string, options: Record<string, unknown>): Promise<void> };
  location: { origin: string };
  clients: { matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClientLike[]>; openWindow(url: string): Promise<unknown> };
  addEventListener(type: "install" | "activate", listener: (event: { waitUntil(work: Promise<unknown>): void }) => void): void;
  addEventListener(type: "push", listener: (event: { data: { json(): unknown } | null; waitUntil(work: Promise<unknown>): void }) => void): void;
  addEventListener(
    type: "notificationclick",
    listener: (event: { notification: { data: unknown; close(): void }; waitUntil(work: Promise<unknown>): void }) => void,
  ): void;
  skipWaiting(): Promise<void>;
}

/** The worker's global scope (the console's TypeScript settings know the page's globals, not a worker's). */
const scope = self as unknown as WorkerScope & { clients: WorkerScope["clients"] & { claim(): Promise<void> } };

const CONSOLE = "/console/";

/** Keeps the worker alive until `work` ends; an event dispatched by a script (not the browser) has no lifetime to extend. */
function keepAlive(event: { waitUntil(work: Promise<unknown>): void }, work: Promise<unknown>): void {
  try {
    event.waitUntil(work);
  } catch {
    // An untrusted event: the work runs anyway.
  }
}

/** The alert, or a generic one when the payload is missing or not ours. */
function alertOf(data: { json(): unknown } | null): PushAlert {
  const fallback = { title: "Frontdesk", body: "A visitor asked for a person", url: `${scope.location.origin}${CONSOLE}inbox`, tag: "frontdesk" };
  try {
    const value = data?.json() as Partial<PushAlert> | undefined;
    if (!value || typeof value !== "object") return fallback;
    return {
      title: typeof value.title === "string" ? value.title : fallback.title,
      body: typeof value.body === "string" ? value.body : fallback.body,
      url: typeof value.url === "string" ? value.url : fallback.url,
      tag: typeof value.tag === "string" ? value.tag : fallback.tag,
    };
  } catch {
    return fallback;
  }
}

/** Only a page of this console is opened: an alert cannot send the operator elsewhere. */
function consoleUrl(url: unknown): string {
  try {
    const parsed = new URL(String(url), scope.location.origin);
    if (parsed.origin === scope.location.origin && parsed.pathname.startsWith(CONSOLE)) return parsed.href;
  } catch {
    // Falls through.
  }
  return `${scope.location.origin}${CONSOLE}inbox`;
}

scope.addEventListener("install", (event) => keepAlive(event, scope.skipWaiting()));
scope.addEventListener("activate", (event) => keepAlive(event, scope.clients.claim()));

scope.addEventListener("push", (event) => {
  const alert = alertOf(event.data);
  keepAlive(event, scope.registration.showNotification(alert.title, { body: alert.body, tag: alert.tag, renotify: true, requireInteraction: true, data: { url: consoleUrl(alert.url) } }));
});

scope.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const url = consoleUrl(data?.url);
  keepAlive(
    event,
    (async () => {
      const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).pathname.startsWith(CONSOLE));
      if (open) {
        // Focusing needs the click's user activation; navigating needs the page to be this worker's (it claims them when it starts).
        await open.focus().catch(() => undefined);
        if (await open.navigate(url).then(() => true, () => false)) return;
      }
      await scope.clients.openWindow(url);
    })(),
  );
});

export {};
