import type { Branding, WidgetAgent } from "@frontdesk/contracts";
import type { MountContext } from "../shared/embed-context.js";
import { WidgetApiClient, type InitData } from "./widget-api-client.js";
import { WidgetApiError } from "./widget-request.js";
import { en, type UiStrings } from "./ui-strings.js";
import { forgetAnonId, readAnonId, writeAnonId } from "./visitor-storage.js";
import { chatMessageOf, type ChatMessage } from "./chat-message.js";
import { HandoffController, NO_HANDOFF, type HandoffState } from "./handoff/handoff-controller.js";

export interface ChatState {
  open: boolean;
  /** idle: no session yet; starting: init in flight; ready; unavailable: this page cannot use the agent. */
  phase: "idle" | "starting" | "ready" | "unavailable";
  /** The conversation the session is in, once init has answered. */
  conversationId: string | null;
  agent: WidgetAgent | null;
  branding: Branding | null;
  messages: ChatMessage[];
  /** A message for the visitor about the last failure (network, rate limit), or null. */
  notice: string | null;
  /** An answer is streaming: the composer waits. */
  answering: boolean;
  /** Asking for a person, and the operator's side of the conversation. */
  handoff: HandoffState;
}

type Listener = (state: ChatState) => void;

/**
 * One visitor's chat with one agent: the session from init (started when the widget first opens,
 * renewed when the token is refused), the messages, and each answer as it streams in. The view
 * subscribes to its state; the JavaScript API calls its methods.
 */
export class ChatSession {
  state: ChatState = { open: false, phase: "idle", conversationId: null, agent: null, branding: null, messages: [], notice: null, answering: false, handoff: NO_HANDOFF };
  /** The notices' words, in the widget's language (mount keeps them current). */
  strings: UiStrings = en;
  private readonly listeners = new Set<Listener>();
  private readonly api: WidgetApiClient;
  private session: InitData | null = null;
  private starting: Promise<InitData | null> | null = null;
  private counter = 0;
  /** Failed starts in a row (network errors): the next try waits 1, 2, 4 … up to 30 seconds. */
  private failedStarts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private renewTimer: ReturnType<typeof setTimeout> | undefined;
  /** The next init starts a new conversation ("new conversation" in the menu). */
  private freshConversation = false;
  /** Refused messages waiting out their Retry-After. */
  private readonly unsentTimers = new Set<ReturnType<typeof setTimeout>>();
  readonly handoff: HandoffController;

  constructor(private readonly context: MountContext) {
    this.api = new WidgetApiClient(context.options.serviceUrl);
    this.handoff = new HandoffController(context.options.serviceUrl, {
      messages: () => this.state.messages,
      setMessages: (messages) => this.update({ messages }),
      setHandoff: (handoff) => this.update({ handoff }),
      answering: () => this.state.answering,
      nextKey: () => this.nextKey(),
      session: (renew) => this.start(renew),
      fail: (error) => this.fail(error, false),
      received: ({ role, content, citations, lowConfidence }) => {
        if (role !== "visitor") this.context.emit("message", { role, content, citations, low_confidence: lowConfidence });
      },
      statusChanged: (detail) => this.context.emit("handoff", detail),
    });
    // Back online: a session that could not start tries again at once.
    window.addEventListener("online", () => {
      if (!this.session && this.state.open) void this.start();
    });
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private update(change: Partial<ChatState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener(this.state);
  }

  private changeMessage(key: string, patch: Partial<ChatMessage>): void {
    this.update({ messages: this.state.messages.map((item) => (item.key === key ? { ...item, ...patch } : item)) });
  }

  private nextKey(): string {
    this.counter += 1;
    return `m${this.counter}`;
  }

  setOpen(open: boolean): void {
    if (this.state.open === open || this.state.phase === "unavailable") return;
    this.update({ open });
    this.context.emit(open ? "open" : "close");
    if (open) void this.start();
  }

  /** init once (concurrent callers share it); null when the page cannot use the agent (never asked again) or the network failed. */
  start(renew = false): Promise<InitData | null> {
    if (this.state.phase === "unavailable") return Promise.resolve(null);
    if (this.session && !renew) return Promise.resolve(this.session);
    // init runs a microtask later, so a listener that calls start() while it updates the state shares this one.
    this.starting ??= Promise.resolve()
      .then(() => this.init())
      .finally(() => {
        this.starting = null;
      });
    return this.starting;
  }

  private async init(): Promise<InitData | null> {
    const { options } = this.context;
    if (!this.context.hasConsent()) return null;
    if (!this.session) this.update({ phase: "starting", notice: null });
    try {
      const anonId = this.session?.anonymous_id ?? readAnonId(options.agentId);
      const fresh = this.freshConversation;
      const data = await this.api.init({ agent_id: options.agentId, page_url: location.href, ...(anonId ? { anon_id: anonId } : {}), ...(fresh ? { new_conversation: true } : {}) });
      writeAnonId(options.agentId, data.anonymous_id);
      this.failedStarts = 0;
      clearTimeout(this.retryTimer);
      if (fresh) this.freshConversation = false;
      // A renewal may find the conversation ended (idle): the new one's messages replace the old.
      const first = !this.session || this.session.conversation_id !== data.conversation_id;
      this.session = data;
      this.renewBefore(data.expires_at);
      this.handoff.started(data);
      if (first) {
        this.update({
          phase: "ready",
          conversationId: data.conversation_id,
          agent: data.agent,
          branding: data.branding,
          notice: null,
          messages: data.messages.map((message) => chatMessageOf(message, this.nextKey())),
        });
      }
      return data;
    } catch (error) {
      const first = !this.session;
      this.fail(error, first);
      if (first && !(error instanceof WidgetApiError)) this.retryLater();
      return null;
    }
  }

  /** The session token is renewed (init again: same visitor, same conversation) five minutes before it expires. */
  private renewBefore(expiresAt: string): void {
    clearTimeout(this.renewTimer);
    const delay = Math.max(Date.parse(expiresAt) - Date.now() - 5 * 60_000, 30_000);
    this.renewTimer = setTimeout(() => void this.start(true), Math.min(delay, 2 ** 31 - 1));
  }

  /** What the page shows, sent as `page_context` with each message (see engagement/page-context.ts). */
  pageContext: () => Record<string, unknown> | null = () => null;

  /** Frontdesk.reset(): forgets the visitor on this site and closes the widget; the next open starts a new visitor. */
  forget(): void {
    forgetAnonId(this.context.options.agentId);
    clearTimeout(this.renewTimer);
    for (const timer of this.unsentTimers) clearTimeout(timer);
    this.unsentTimers.clear();
    this.handoff.stop();
    this.session = null;
    this.update({ open: false, phase: "idle", conversationId: null, messages: [], notice: null });
  }

  /** "New conversation": init with new_conversation; the old conversation's messages go. */
  async newConversation(): Promise<void> {
    if (this.state.answering) return;
    this.freshConversation = true;
    if (await this.start(true)) this.update({ notice: null });
  }

  /** A start that failed on the network is tried again with back-off while the widget is open. */
  private retryLater(): void {
    clearTimeout(this.retryTimer);
    const delay = Math.min(1000 * 2 ** this.failedStarts, 30_000);
    this.failedStarts += 1;
    this.retryTimer = setTimeout(() => {
      if (!this.session && this.state.open) void this.start();
    }, delay);
  }

  private fail(error: unknown, starting: boolean): void {
    if (error instanceof WidgetApiError && (error.code === "origin_forbidden" || error.code === "agent_not_found")) {
      // For the site owner, once; the visitor sees no widget that cannot work.
      console.error(
        error.code === "origin_forbidden"
          ? `Frontdesk: this page's origin ${location.origin} is not one of agent ${this.context.options.agentId}'s allowed origins; add it with \`frontdesk admin agent update ${this.context.options.agentId} --origin ${location.origin}\` (with every --origin to keep).`
          : `Frontdesk: no published agent has the id ${this.context.options.agentId} (data-agent-id).`,
      );
      // Nothing runs on for it: no renewal, no retry, no channel (the rules stop as they see the phase).
      clearTimeout(this.renewTimer);
      clearTimeout(this.retryTimer);
      this.handoff.stop();
      this.update({ phase: "unavailable", open: false });
      this.context.host.remove();
      this.context.emit("error", { code: error.code });
      return;
    }
    const notice = error instanceof WidgetApiError && error.status === 429 ? this.strings.tooMany(error.retryAfter) : this.strings.networkProblem;
    this.update({ notice, ...(starting ? { phase: "idle" as const } : {}) });
    this.context.emit("error", { code: error instanceof WidgetApiError ? error.code : "network_error" });
  }

  private refused(key: string, retryAfter: number | null): void {
    this.changeMessage(key, { unsent: retryAfter ? "waiting" : "retry" });
    if (!retryAfter) return;
    const timer = setTimeout(() => {
      this.unsentTimers.delete(timer);
      this.changeMessage(key, { unsent: "retry" });
    }, retryAfter * 1000);
    this.unsentTimers.add(timer);
  }

  /** "Send again" on a refused message: it is sent anew (and moves to the end of the conversation). */
  retry(key: string): void {
    const message = this.state.messages.find((item) => item.key === key);
    if (message?.unsent !== "retry" || this.state.answering) return;
    this.update({ messages: this.state.messages.filter((item) => item !== message) });
    void this.send(message.content);
  }

  /** Sends the visitor's message and streams the answer into a new bot message. */
  async send(text: string): Promise<void> {
    const message = text.trim();
    if (!message || this.state.answering) return;
    if (!this.state.open) this.setOpen(true);
    this.update({ answering: true });
    const session = await this.start();
    if (!session) {
      this.update({ answering: false });
      return;
    }
    const visitor: ChatMessage = { key: this.nextKey(), role: "visitor", content: message, citations: [], streaming: false, lowConfidence: false };
    const answer: ChatMessage = { key: this.nextKey(), role: "bot", content: "", citations: [], streaming: true, lowConfidence: false };
    this.update({ messages: [...this.state.messages, visitor, answer], answering: true, notice: null });
    const change = (patch: Partial<ChatMessage>) => {
      Object.assign(answer, patch);
      this.update({ messages: this.state.messages.map((item) => (item.key === answer.key ? { ...answer } : item)) });
    };
    const pageContext = this.pageContext();
    const body = { message, page_url: location.href, ...(pageContext ? { page_context: pageContext } : {}) };
    const onFrame = (frame: Parameters<Parameters<WidgetApiClient["streamAnswer"]>[2]>[0]) => {
      if (frame.event === "token") change({ content: answer.content + frame.token });
      else if (frame.event === "citations") change({ citations: frame.citations.filter((citation) => /^https?:\/\//i.test(citation.url)) });
      else if (frame.event === "error") change({ content: answer.content || frame.message });
      else if (frame.event === "done") {
        change({ streaming: false, lowConfidence: frame.low_confidence === true, ...(frame.message_id ? { id: frame.message_id } : {}) });
        if (frame.awaiting_human === true) void this.handoff.followServer();
      }
    };
    try {
      try {
        await this.api.streamAnswer(session.jwt, body, onFrame);
      } catch (error) {
        // An expired or refused token: a fresh one (same visitor, same conversation) and one retry.
        if (!(error instanceof WidgetApiError && error.status === 401)) throw error;
        const renewed = await this.start(true);
        if (!renewed) return;
        await this.api.streamAnswer(renewed.jwt, body, onFrame);
      }
      const { role, content, citations, lowConfidence } = answer;
      this.context.emit("message", { role, content, citations, low_confidence: lowConfidence });
    } catch (error) {
      // Refused (a 429, a message too long): the service did not keep it. Shown as not sent, with a
      // "send again" once Retry-After's seconds have passed.
      if (error instanceof WidgetApiError) this.refused(visitor.key, error.retryAfter);
      this.fail(error, false);
    } finally {
      if (answer.content === "") this.update({ messages: this.state.messages.filter((item) => item.key !== answer.key) });
      else change({ streaming: false });
      this.update({ answering: false });
    }
  }
}
