import type { BehaviorRule } from "@frontdesk/contracts";
import type { MountContext } from "../../shared/embed-context.js";
import type { ChatSession, ChatState } from "../chat-session.js";
import { EngagementApi } from "./engagement-api.js";
import { WidgetApiError } from "../widget-request.js";
import { engagementEn, type EngagementStrings } from "./engagement-strings.js";
import { mergeExtraContext, readPageContext } from "./page-context.js";
import { runRules } from "./rule-runner.js";
import { safeHref } from "../markdown.js";

/** A minute without a word after an answer: the visitor is asked how it went. */
export const SILENCE_BEFORE_SATISFACTION_MS = 60_000;
/** As /coupon/apply takes them (the contracts' couponCodeSchema; zod stays out of the bundle). */
const COUPON_CODE = /^[A-Za-z0-9-]{3,32}$/;

export interface RuleBubble {
  ruleId: string | null;
  text: string | null;
  cta: { label: string; url: string; coupon?: string } | null;
}

export interface EngagementState {
  /** A proactive rule's message or call to action next to the launcher (while the panel is closed). */
  bubble: RuleBubble | null;
  coupon: { code: string; status: "applying" | "applied" | "refused" } | null;
  /** The satisfaction prompt: hidden, asking (good / bad), comment (optional words), thanks. */
  satisfaction: "hidden" | "asking" | "comment" | "thanks";
  rating: "good" | "bad" | null;
}

type Listener = (state: EngagementState) => void;

/**
 * What the widget does beyond the chat itself: runs the agent's proactive rules and posts their
 * telemetry to /events, applies coupons, asks for satisfaction once per conversation, and keeps the
 * page context the messages carry.
 */
export class Engagement {
  state: EngagementState = { bubble: null, coupon: null, satisfaction: "hidden", rating: null };
  strings: EngagementStrings = engagementEn;
  readonly #listeners = new Set<Listener>();
  readonly #api: EngagementApi;
  #extraContext: Record<string, unknown> = {};
  #silenceTimer: ReturnType<typeof setTimeout> | undefined;
  #stopRules: () => void = () => {};
  #rulesStarted = false;
  /** The widget became unavailable (init refused the page): no rule runs again. */
  #stopped = false;
  /** The rule whose action opened the panel (its `launcher.open` carries the rule's id). */
  #openingRule: string | null = null;

  readonly #context: MountContext;
  readonly #session: ChatSession;
  constructor(
    context: MountContext,
    session: ChatSession,
  ) {
    this.#session = session;
    this.#context = context;
    this.#api = new EngagementApi(context.options.serviceUrl);
    session.pageContext = () => readPageContext(document, this.#extraContext);
    let previous: ChatState = session.state;
    session.subscribe((state) => {
      this.#observe(previous, state);
      previous = state;
    });
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #update(change: Partial<EngagementState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.#listeners) listener(this.state);
  }

  #storageKey(name: string): string {
    return `frontdesk:${this.#context.options.agentId}:${name}`;
  }

  /** Reads the agent's rules and starts watching the page (once; only with consent). */
  async startRules(): Promise<void> {
    if (this.#rulesStarted || this.#stopped || !this.#context.hasConsent()) return;
    this.#rulesStarted = true;
    try {
      const rules = await this.#api.rules(this.#context.options.agentId);
      if (!this.#stopped) this.#stopRules = runRules(rules, (rule) => this.#fire(rule));
    } catch (error) {
      // No rules on this page; a refused origin (or an unknown agent) removes the widget at once.
      this.#session.unavailable(error);
    }
  }

  #fire(rule: BehaviorRule): void {
    if (rule.trigger.type === "scroll") void this.#telemetry("scroll.trigger", rule.id, { percent: rule.trigger.percent });
    const action = rule.action;
    if (action.type === "open") {
      if (!this.#session.state.open) {
        this.#openingRule = rule.id;
        this.#session.setOpen(true);
      }
      return;
    }
    if (this.#session.state.open) return;
    if (action.type === "message") this.#update({ bubble: { ruleId: rule.id, text: action.text, cta: null } });
    else this.#update({ bubble: { ruleId: rule.id, text: action.text ?? null, cta: { label: action.label, url: action.url, ...(action.coupon ? { coupon: action.coupon } : {}) } } });
  }

  /** Posts one telemetry event (starting the session it belongs to). */
  async #telemetry(event: string, ruleId: string | null, metadata?: Record<string, unknown>): Promise<void> {
    const data = await this.#session.start();
    if (!data) return;
    try {
      await this.#api.event(data.jwt, event, ruleId ?? undefined, metadata);
    } catch (error) {
      this.#context.emit("error", { code: error instanceof WidgetApiError ? error.code : "network_error" });
    }
  }

  /** The bubble's text was clicked: the panel opens. */
  openFromBubble(): void {
    this.#openingRule = this.state.bubble?.ruleId ?? null;
    this.#update({ bubble: null });
    this.#session.setOpen(true);
  }

  dismissBubble(): void {
    const ruleId = this.state.bubble?.ruleId ?? null;
    this.#update({ bubble: null });
    if (ruleId) void this.#telemetry("rule.dismiss", ruleId);
  }

  /** The call to action: its click is posted, its coupon applied, then the visitor follows its link. */
  async followCta(): Promise<void> {
    const bubble = this.state.bubble;
    if (!bubble?.cta) return;
    await this.#telemetry("cta.click", bubble.ruleId, { url: bubble.cta.url });
    if (bubble.cta.coupon) await this.applyCoupon(bubble.cta.coupon);
    // The server accepts only http(s) links; checked again here, as every link the widget follows is.
    const url = safeHref(bubble.cta.url);
    if (url) location.assign(url);
  }

  /** Frontdesk.applyCoupon(code), or a rule's coupon: POST /coupon/apply, and the outcome shown to the visitor. */
  async applyCoupon(value: unknown): Promise<void> {
    const code = String(value ?? "").trim();
    if (!COUPON_CODE.test(code)) {
      console.error(`Frontdesk: applyCoupon("${code}"): a coupon code is 3 to 32 letters, digits and dashes.`);
      this.#context.emit("error", { code: "invalid_coupon" });
      return;
    }
    this.#update({ coupon: { code, status: "applying" } });
    const data = await this.#session.start();
    if (!data) {
      this.#update({ coupon: null });
      return;
    }
    try {
      await this.#api.coupon(data.jwt, code);
      this.#update({ coupon: { code, status: "applied" } });
      try {
        localStorage.setItem(this.#storageKey("coupon"), `${data.conversation_id} ${code}`);
      } catch {
        // storage blocked: shown on this page only
      }
    } catch (error) {
      this.#update({ coupon: { code, status: "refused" } });
      this.#context.emit("error", { code: error instanceof WidgetApiError ? error.code : "network_error" });
    }
    if (!this.#session.state.open) this.#update({ bubble: { ruleId: null, text: this.couponText(), cta: null } });
  }

  couponText(): string | null {
    const coupon = this.state.coupon;
    if (!coupon) return null;
    return coupon.status === "applied" ? this.strings.couponApplied(coupon.code) : coupon.status === "refused" ? this.strings.couponRefused(coupon.code) : this.strings.couponApplying(coupon.code);
  }

  /** Frontdesk.setContext(object): added to the page context of the next messages. */
  setContext(added: unknown): void {
    const merged = mergeExtraContext(this.#extraContext, added);
    if (typeof merged === "string") {
      console.error(`Frontdesk: ${merged}.`);
      this.#context.emit("error", { code: "invalid_context" });
      return;
    }
    this.#extraContext = merged;
  }

  /** Frontdesk.reset(): what was kept for the visitor goes with them. */
  forget(): void {
    clearTimeout(this.#silenceTimer);
    this.#extraContext = {};
    this.#update({ bubble: null, coupon: null, satisfaction: "hidden", rating: null });
  }

  /**
   * The widget became unavailable (everything stops), the conversation changed (its applied coupon is
   * shown again after a reload, a new conversation has none), the panel opened (its launcher.open
   * event), and answers followed by silence (satisfaction).
   */
  #observe(previous: ChatState, state: ChatState): void {
    if (state.phase === "unavailable") {
      this.stop();
      return;
    }
    if (state.conversationId !== previous.conversationId && state.conversationId) this.#restoreCoupon(state.conversationId, previous.conversationId !== null);
    if (state.open && !previous.open) {
      const ruleId = this.#openingRule;
      this.#openingRule = null;
      if (this.state.bubble) this.#update({ bubble: null });
      void this.#telemetry("launcher.open", ruleId);
    }
    if (state.answering) clearTimeout(this.#silenceTimer);
    else if (previous.answering) {
      const last = state.messages[state.messages.length - 1];
      if (last?.role === "bot" && last.content) {
        clearTimeout(this.#silenceTimer);
        this.#silenceTimer = setTimeout(() => void this.askSatisfaction(), SILENCE_BEFORE_SATISFACTION_MS);
      }
    }
  }

  /** The conversation closed (a handoff status), or a minute passed after an answer: asked once per conversation. */
  async askSatisfaction(): Promise<void> {
    if (this.state.satisfaction !== "hidden") return;
    const data = await this.#session.start();
    if (!data || this.#askedAbout() === data.conversation_id) return;
    this.#update({ satisfaction: "asking", rating: null });
  }

  #askedAbout(): string | null {
    try {
      return localStorage.getItem(this.#storageKey("satisfaction"));
    } catch {
      return null;
    }
  }

  rate(rating: "good" | "bad"): void {
    this.#update({ satisfaction: "comment", rating });
  }

  async sendSatisfaction(comment: string): Promise<void> {
    const rating = this.state.rating;
    if (!rating) return;
    const data = await this.#session.start();
    if (!data) return;
    try {
      await this.#api.satisfaction(data.jwt, rating, comment.trim().slice(0, 500));
      this.#update({ satisfaction: "thanks" });
      try {
        localStorage.setItem(this.#storageKey("satisfaction"), data.conversation_id);
      } catch {
        // storage blocked: asked again after a reload at most
      }
    } catch (error) {
      this.#context.emit("error", { code: error instanceof WidgetApiError ? error.code : "network_error" });
    }
  }

  /** The coupon applied to this conversation, as kept after /coupon/apply accepted it; another conversation's goes. */
  #restoreCoupon(conversationId: string, switched: boolean): void {
    let kept: string | null = null;
    try {
      kept = localStorage.getItem(this.#storageKey("coupon"));
    } catch {
      // storage blocked: nothing was kept
    }
    const [keptFor, code] = (kept ?? "").split(" ");
    if (keptFor === conversationId && code && this.state.coupon === null) this.#update({ coupon: { code, status: "applied" } });
    else if (switched && keptFor !== conversationId && this.state.coupon?.status !== "applying") this.#update({ coupon: null });
  }

  /** The widget is unavailable on this page: its rules and timers stop for good (init is never called again). */
  stop(): void {
    this.#stopped = true;
    this.#stopRules();
    this.#stopRules = () => {};
    clearTimeout(this.#silenceTimer);
    if (this.state.bubble) this.#update({ bubble: null });
  }
}
