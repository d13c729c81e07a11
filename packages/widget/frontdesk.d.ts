// Types of the widget's JavaScript API: `window.Frontdesk`, defined by widget.js (the one global it adds).
// Copy this file into a site's project, or reference it (/// <reference path="frontdesk.d.ts" />).
// Calls made before the widget has loaded are queued and replayed once it has; a page may even queue
// calls before widget.js runs: `window.Frontdesk = { q: [["setContext", { plan: "pro" }], ["open"]] }`.

export interface FrontdeskCitation {
  id: number;
  url: string;
  /** The cited document's title, when it has one. */
  title?: string;
}

/** A complete message the visitor receives: a bot's answer once it has finished streaming, an operator's reply, a system message. */
export interface FrontdeskMessage {
  role: "bot" | "operator" | "system" | "visitor";
  content: string;
  citations: FrontdeskCitation[];
  low_confidence: boolean;
}

/** A change of the conversation's handling: the bot, waiting for a person, a person, closed. */
export interface FrontdeskHandoff {
  status: "bot" | "awaiting_human" | "human" | "closed";
  [detail: string]: unknown;
}

/** What `error` reports: a stable code (`load_failed`, `origin_forbidden`, `agent_not_found`, `identity_invalid`, `identity_required`, `rate_limited`, `network_error`, `coupon_not_available`, `invalid_coupon`, `invalid_context` …). */
export interface FrontdeskError {
  code: string;
}

export interface FrontdeskEvents {
  /** The widget's bundle has loaded and runs the calls queued before. */
  ready: undefined;
  open: undefined;
  close: undefined;
  message: FrontdeskMessage;
  handoff: FrontdeskHandoff;
  error: FrontdeskError;
}

/**
 * The site's signed-in user, vouched for by its back end: `user_hash` is the lowercase hex
 * HMAC-SHA256 of `user_id` under the agent's identity secret (computed on the server, never in the page).
 */
export interface FrontdeskIdentity {
  user_id: string;
  user_hash: string;
  email?: string;
  name?: string;
}

export interface FrontdeskApi {
  /** Opens the chat (and gives consent under data-consent="required"). */
  open(): void;
  close(): void;
  /** Opens the chat if it is closed, closes it if it is open (and gives consent). */
  toggle(): void;
  /** Opens the chat and asks `text` as the visitor. */
  send(text: string): void;
  /** Adds to the page context sent with each message (merged with what was set before; at most 8 KB as JSON). */
  setContext(context: Record<string, unknown>): void;
  /** Applies a coupon code (3 to 32 letters, digits and dashes) to the conversation: e-commerce agents only. */
  applyCoupon(code: string): void;
  /** Under data-consent="required": the visitor agreed; the widget may store its id and read the agent's proactive rules. */
  consent(): void;
  /** Forgets the visitor on this site (their id, the identified user and what the widget kept) and closes the chat; the next open is a new visitor. Call it when the user signs out. */
  reset(): void;
  /** The signed-in user (as data-user-id, data-user-hash, data-user-email and data-user-name give it); a chat already started starts again as them, on their latest conversation. null: nobody. */
  identify(identity: FrontdeskIdentity | null): void;
  on<E extends keyof FrontdeskEvents>(event: E, handler: (detail: FrontdeskEvents[E]) => void): void;
  off<E extends keyof FrontdeskEvents>(event: E, handler: (detail: FrontdeskEvents[E]) => void): void;
}

declare global {
  interface Window {
    Frontdesk?: FrontdeskApi;
  }
}
