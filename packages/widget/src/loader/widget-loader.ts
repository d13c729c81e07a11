// widget.js: the one script a site embeds. It paints the launcher at once, defines `window.Frontdesk`
// (its only global) and loads the rest of the widget (a hashed ES module) on hover, focus, click,
// Frontdesk.open() or data-open; calls made before that are queued and replayed.
import { OPENED_ON_LOAD, type MountContext, type MountWidget, type WidgetCommand, type WidgetController, type WidgetEventName } from "../shared/embed-context.js";
import { paintLauncher } from "./paint-launcher.js";
import { readEmbedOptions } from "./read-embed-options.js";

/** The hashed file name of the bundle, set by build.mjs. */
declare const __FRONTDESK_BUNDLE__: string;

type Handler = (detail: unknown) => void;
interface FrontdeskApi extends WidgetController {
  on(event: WidgetEventName, handler: Handler): void;
  off(event: WidgetEventName, handler: Handler): void;
}
/** Calls a page queued before widget.js ran (`window.Frontdesk = { q: [["open"]] }`). */
interface EarlyQueue {
  q?: unknown[];
}

declare global {
  interface Window {
    Frontdesk?: FrontdeskApi | EarlyQueue;
  }
}

const COMMANDS: readonly WidgetCommand[] = ["open", "close", "toggle", "send", "consent", "setContext", "applyCoupon", "reset", "identify"];

function start(script: HTMLScriptElement): void {
  const options = readEmbedOptions(script);
  if (typeof options === "string") {
    console.error(`Frontdesk: ${options}.`);
    return;
  }
  const early = window.Frontdesk as EarlyQueue | undefined;
  const painted = paintLauncher(options);
  const handlers = new Map<WidgetEventName, Set<Handler>>();
  const queued: [WidgetCommand, unknown[]][] = [];
  let consented = !options.consentRequired;
  let controller: WidgetController | null = null;
  let loading: Promise<void> | null = null;

  const emit = (event: WidgetEventName, detail?: unknown) => {
    for (const handler of handlers.get(event) ?? []) {
      try {
        handler(detail);
      } catch (error) {
        console.error(error);
      }
    }
  };
  const context: MountContext = { ...painted, options, hasConsent: () => consented, emit };

  const load = (): Promise<void> =>
    (loading ??= (import(new URL(`widget/assets/${__FRONTDESK_BUNDLE__}`, options.serviceUrl).href) as Promise<{ mount: MountWidget }>).then(
      (bundle) => {
        controller = bundle.mount(context);
        for (const [command, args] of queued.splice(0)) run(command, args);
        emit("ready");
      },
      (error: unknown) => {
        loading = null;
        console.error("Frontdesk: the widget could not load from", options.serviceUrl, error);
        emit("error", { code: "load_failed" });
      },
    ));

  function run(command: WidgetCommand, args: unknown[]): void {
    if (command === "open" || command === "toggle" || command === "consent") consented = true;
    if (controller) {
      (controller[command] as (...values: unknown[]) => void)(...args);
      return;
    }
    queued.push([command, args]);
    if (consented) void load();
  }

  const api = { on: (event, handler) => void handlers.set(event, (handlers.get(event) ?? new Set()).add(handler)), off: (event, handler) => void handlers.get(event)?.delete(handler) } as FrontdeskApi;
  for (const command of COMMANDS) api[command] = ((...args: unknown[]) => run(command, args)) as never;
  window.Frontdesk = api;

  // Loading early where it costs the visitor nothing: the pointer or focus on the launcher.
  const warm = () => {
    if (consented) void load();
  };
  painted.launcher.addEventListener("pointerenter", warm);
  painted.launcher.addEventListener("focus", warm);
  painted.launcher.addEventListener("click", () => run("toggle", []));

  for (const call of Array.isArray(early?.q) ? early.q : []) {
    if (Array.isArray(call) && COMMANDS.includes(call[0] as WidgetCommand)) run(call[0] as WidgetCommand, call.slice(1));
  }
  // A page opened from an e-mailed reply's link opens the widget on the resumed conversation (app/resume-link.ts).
  if (options.openOnLoad || location.hash.startsWith("#frontdesk_resume=")) run("open", [OPENED_ON_LOAD]);
  // With consent, the rest loads once the page is idle: it runs the agent's proactive rules.
  (window.requestIdleCallback ?? setTimeout)(warm);
}

const script = document.currentScript;
const existing = window.Frontdesk;
if (script instanceof HTMLScriptElement && !(existing && "open" in existing)) start(script);
