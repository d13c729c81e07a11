// What the loader (widget.js) and the lazily loaded bundle share: the options read from the script
// tag, what the loader hands over when the bundle mounts, and what the bundle hands back. The two
// are built separately (the loader must stay under 5 KB), so this file holds types and constants only.

export type LauncherPosition = "left" | "right";

/** The script tag's data-* attributes, read once by the loader. */
export interface EmbedOptions {
  agentId: string;
  /** data-language, when given (else the agent's default). */
  language: string | null;
  /** data-open: open as soon as the page loads. */
  openOnLoad: boolean;
  position: LauncherPosition;
  /** data-consent="required": no storage and no request before the visitor opens or the page calls consent(). */
  consentRequired: boolean;
  /** The service's base URL, ending in "/": where widget.js came from. */
  serviceUrl: string;
  /** The site's signed-in user (data-user-id, data-user-hash, data-user-email, data-user-name, or Frontdesk.identify), sent with init. */
  identity?: Identity | undefined;
}

/** What init takes of a signed-in user: `user_hash` is the site back end's HMAC-SHA256 of `user_id` (docs/widget.md). */
export interface Identity {
  user_id?: string | undefined;
  user_hash?: string | undefined;
  email?: string | undefined;
  name?: string | undefined;
}

/** The events a page can listen to with Frontdesk.on(event, handler). */
export type WidgetEventName = "ready" | "open" | "close" | "message" | "handoff" | "error";

/** The calls of the JavaScript API that the bundle carries out (queued by the loader until it has loaded). */
/** The loader's argument to open() for data-open: the panel opens without taking the page's focus. */
export const OPENED_ON_LOAD = "frontdesk:load";

export interface WidgetController {
  open(source?: unknown): void;
  close(): void;
  toggle(): void;
  send(text: string): void;
  consent(): void;
  /** Adds to the page context sent with each message. */
  setContext(context: unknown): void;
  /** Applies a coupon to the conversation (e-commerce agents). */
  applyCoupon(code: unknown): void;
  /** Forgets the visitor: their id and what the widget kept on this site; closes the widget. */
  reset(): void;
  /** The site's signed-in user ({user_id, user_hash, email, name}; null: none): a started session starts again as them. */
  identify(identity: unknown): void;
}
export type WidgetCommand = keyof WidgetController;

/** What the loader hands to the bundle's mount(). */
export interface MountContext {
  options: EmbedOptions;
  /** The widget's element on the page and its shadow root: all the widget draws lives inside. */
  host: HTMLElement;
  root: ShadowRoot;
  /** The launcher the loader painted; the bundle keeps its label and expanded state current. */
  launcher: HTMLButtonElement;
  /** Where the bundle renders the chat panel. */
  panelSlot: HTMLElement;
  /** Whether the visitor (or the page) has consented; always true without data-consent="required". */
  hasConsent(): boolean;
  emit(event: WidgetEventName, detail?: unknown): void;
}

export type MountWidget = (context: MountContext) => WidgetController;
