import type { Attachment, Availability, Branding, WidgetAgent } from "@frontdesk/contracts";
import { uploadFile } from "./attachments.js";
import type { Identity, MountContext } from "../shared/embed-context.js";
import { takeResumeToken } from "./resume-link.js";
import { WidgetApiClient, type InitData, type Outgoing } from "./widget-api-client.js";
import { WidgetApiError, widgetRequest } from "./widget-request.js";
import { en, type UiStrings } from "./ui-strings.js";
import { forgetAnonId, readAnonId, outbox, writeAnonId } from "./visitor-storage.js";
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
  /** Office hours as of the last init: the reply time inside them, the away notice outside. */
  availability: Availability | null;
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
  state: ChatState = { open: false, phase: "idle", conversationId: null, agent: null, branding: null, availability: null, messages: [], notice: null, answering: false, handoff: NO_HANDOFF };
  /** The notices' words, in the widget's language (mount keeps them current). */
  strings: UiStrings = en;
  readonly #listeners = new Set<Listener>();
  readonly #api: WidgetApiClient;
  #session: InitData | null = null;
  #starting: Promise<InitData | null> | null = null;
  #counter = 0;
  /** Failed starts in a row (network errors): the next try waits 1, 2, 4 … up to 30 seconds. */
  #failedStarts = 0;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #renewTimer: ReturnType<typeof setTimeout> | undefined;
  /** The next init starts a new conversation ("new conversation" in the menu). */
  #freshConversation = false;
  /** Failed deliveries in a row: the next try waits 1, 2, 4 … up to 30 seconds. */
  #failedSends = 0;
  #resendTimer: ReturnType<typeof setTimeout> | undefined;
  readonly handoff: HandoffController;

  readonly #context: MountContext;
  constructor(context: MountContext) {
    this.#context = context;
    this.#api = new WidgetApiClient(context.options.serviceUrl);
    this.handoff = new HandoffController(context.options.serviceUrl, {
      messages: () => this.state.messages,
      setMessages: (messages) => this.#update({ messages }),
      setHandoff: (handoff) => this.#update({ handoff }),
      answering: () => this.state.answering,
      nextKey: () => this.#nextKey(),
      session: (renew) => this.start(renew),
      fail: (error) => this.#fail(error, false),
      received: ({ role, content, citations, lowConfidence }) => {
        if (role !== "visitor") this.#context.emit("message", { role, content, citations, low_confidence: lowConfidence });
      },
      statusChanged: (detail) => this.#context.emit("handoff", detail),
    });
    // Back online: a session that could not start, and the messages not delivered, try again at once.
    window.addEventListener("online", () => {
      if (!this.#session && this.state.open) void this.start();
      this.#flush();
    });
    // The messages a reload interrupted come back as not sent, and go again by themselves.
    const kept = outbox(context.options.agentId);
    this.state.messages = kept.map((out) => this.#visitorMessage(out, true));
    if (kept[0]) this.#resendLater(0);
  }

  #visitorMessage(out: Outgoing, unsent?: boolean): ChatMessage {
    return { key: this.#nextKey(), role: "visitor", content: out.body.message, files: out.files, citations: [], streaming: false, lowConfidence: false, out, unsent };
  }

  /** Writes the messages not yet delivered to the outbox. */
  #keep(): void {
    outbox(this.#context.options.agentId, this.state.messages.flatMap((item) => (item.out ? [item.out] : [])));
  }

  /** Undelivered messages go again by themselves: after 1, 2, 4 … 30 s (or Retry-After), and when the browser is back online. */
  #resendLater(delay = Math.min(1000 * 2 ** this.#failedSends++, 30_000)): void {
    clearTimeout(this.#resendTimer);
    this.#resendTimer = setTimeout(() => this.#flush(), delay);
  }

  /** Sends the first message not delivered (the next goes once it is). */
  #flush(): void {
    const next = this.state.messages.find((item) => item.out && item.unsent);
    if (next && !this.state.answering && this.state.phase !== "unavailable") void this.#deliver(next);
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #update(change: Partial<ChatState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.#listeners) listener(this.state);
  }

  #changeMessage(key: string, patch: Partial<ChatMessage>): void {
    this.#update({ messages: this.state.messages.map((item) => (item.key === key ? { ...item, ...patch } : item)) });
  }

  #nextKey(): string {
    this.#counter += 1;
    return `m${this.#counter}`;
  }

  setOpen(open: boolean): void {
    if (this.state.open === open || this.state.phase === "unavailable") return;
    this.#update({ open });
    this.#context.emit(open ? "open" : "close");
    if (open) void this.start();
  }

  /** init once (concurrent callers share it); null when the page cannot use the agent (never asked again) or the network failed. */
  start(renew = false): Promise<InitData | null> {
    if (this.state.phase === "unavailable") return Promise.resolve(null);
    if (this.#session && !renew) return Promise.resolve(this.#session);
    // init runs a microtask later, so a listener that calls start() while it updates the state shares this one.
    this.#starting ??= Promise.resolve()
      .then(() => this.#init())
      .finally(() => {
        this.#starting = null;
      });
    return this.#starting;
  }

  async #init(): Promise<InitData | null> {
    const { options } = this.#context;
    if (!this.#context.hasConsent()) return null;
    if (!this.#session) this.#update({ phase: "starting", notice: null });
    try {
      const anonId = this.#session?.anonymous_id ?? readAnonId(options.agentId);
      const fresh = this.#freshConversation;
      // The first init of a page opened from an e-mailed reply resumes that reply's conversation (the token
      // is taken out of the address first, so page_url never holds it). The service ignores an expired link.
      const data = await this.#api.init({
        resume_token: this.#session ? undefined : takeResumeToken(),
        agent_id: options.agentId,
        page_url: location.href,
        time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        ...(anonId ? { anon_id: anonId } : {}),
        ...(fresh ? { new_conversation: true } : {}),
        ...options.identity,
      });
      writeAnonId(options.agentId, data.anonymous_id);
      this.#failedStarts = 0;
      clearTimeout(this.#retryTimer);
      if (fresh) this.#freshConversation = false;
      // A renewal may find the conversation ended (idle): the new one's messages replace the old.
      const first = !this.#session || this.#session.conversation_id !== data.conversation_id;
      this.#session = data;
      this.#renewBefore(data.expires_at);
      this.handoff.started(data);
      if (first) {
        this.#update({
          phase: "ready",
          conversationId: data.conversation_id,
          agent: data.agent,
          branding: data.branding,
          availability: data.availability,
          notice: null,
          // The messages not yet delivered stay, after the conversation's.
          messages: [...data.messages.map((message) => chatMessageOf(message, this.#nextKey())), ...this.state.messages.filter((item) => item.out)],
        });
      } else this.#update({ availability: data.availability });
      return data;
    } catch (error) {
      const first = !this.#session;
      this.#fail(error, first);
      if (first && !(error instanceof WidgetApiError)) this.#retryLater();
      return null;
    }
  }

  /** The session token is renewed (init again: same visitor, same conversation) five minutes before it expires. */
  #renewBefore(expiresAt: string): void {
    clearTimeout(this.#renewTimer);
    const delay = Math.max(Date.parse(expiresAt) - Date.now() - 5 * 60_000, 30_000);
    this.#renewTimer = setTimeout(() => void this.start(true), Math.min(delay, 2 ** 31 - 1));
  }

  /** What the page shows, sent as `page_context` with each message (see engagement/page-context.ts). */
  pageContext: () => Record<string, unknown> | null = () => null;

  /** Frontdesk.reset(): forgets the visitor on this site and closes the widget; the next open starts a new visitor. */
  forget(): void {
    forgetAnonId(this.#context.options.agentId);
    // A signed-out user is not sent again (identify() names the next one).
    this.#context.options.identity = undefined;
    clearTimeout(this.#renewTimer);
    clearTimeout(this.#resendTimer);
    this.handoff.stop();
    this.#session = null;
    this.#update({ open: false, phase: "idle", conversationId: null, messages: [], notice: null });
  }

  /** Frontdesk.identify(): init sends this user from now on; a started session starts again as them (their conversation). */
  identify(identity: unknown): void {
    this.#context.options.identity = (identity || undefined) as Identity | undefined;
    if (this.#session) void this.start(true);
  }

  /** "New conversation": init with new_conversation; the old conversation's messages go. */
  async newConversation(): Promise<void> {
    if (this.state.answering) return;
    this.#freshConversation = true;
    if (await this.start(true)) this.#update({ notice: null });
  }

  /** A start that failed on the network is tried again with back-off while the widget is open. */
  #retryLater(): void {
    clearTimeout(this.#retryTimer);
    const delay = Math.min(1000 * 2 ** this.#failedStarts, 30_000);
    this.#failedStarts += 1;
    this.#retryTimer = setTimeout(() => {
      if (!this.#session && this.state.open) void this.start();
    }, delay);
  }

  /**
   * The page cannot use the agent (its origin refused, the agent unknown), as `/rules` (when the page
   * loads) or init says first: the widget goes before the visitor can use it, with one error in the
   * console for the site owner. True when so.
   */
  unavailable(error: unknown): boolean {
    if (!(error instanceof WidgetApiError && (error.code === "origin_forbidden" || error.code === "agent_not_found"))) return false;
    if (this.state.phase !== "unavailable") {
      console.error(
        error.code === "origin_forbidden"
          ? `Frontdesk: this page's origin ${location.origin} is not one of agent ${this.#context.options.agentId}'s allowed origins; add it with \`frontdesk admin agent update ${this.#context.options.agentId} --origin ${location.origin}\` (with every --origin to keep).`
          : `Frontdesk: no published agent has the id ${this.#context.options.agentId} (data-agent-id).`,
      );
      // Nothing runs on for it: no renewal, no retry, no channel (the rules stop as they see the phase).
      clearTimeout(this.#renewTimer);
      clearTimeout(this.#retryTimer);
      clearTimeout(this.#resendTimer);
      this.handoff.stop();
      this.#update({ phase: "unavailable", open: false });
      this.#context.host.remove();
      this.#context.emit("error", { code: error.code });
    }
    return true;
  }

  #fail(error: unknown, starting: boolean): void {
    if (this.unavailable(error)) return;
    // identity_invalid, identity_required: the site's back end must fix its user_hash (the server's words say
    // how); the visitor is asked to sign in, which gives the page a fresh identity, not told of a network fault.
    const identity = error instanceof WidgetApiError && error.code.startsWith("identity");
    if (identity) console.error(`Frontdesk: ${error.message}`);
    const notice = identity
      ? this.strings.signInToChat
      : error instanceof WidgetApiError && error.status === 429
        ? this.strings.tooMany(error.retryAfter)
        : this.strings.networkProblem;
    this.#update({ notice, ...(starting ? { phase: "idle" as const } : {}) });
    this.#context.emit("error", { code: error instanceof WidgetApiError ? error.code : "network_error" });
  }

  /** "Try again" on a message not sent: the same message (same Idempotency-Key) goes again, to the end of the conversation. */
  retry(key: string): void {
    const message = this.state.messages.find((item) => item.key === key);
    if (message?.unsent && !this.state.answering) void this.#deliver(message);
  }

  /** 👍/👎 under a bot answer (again: another rating replaces it): shown at once, undone with a notice when it could not be stored. */
  async rate(key: string, rating: "up" | "down"): Promise<void> {
    const message = this.state.messages.find((item) => item.key === key);
    if (!message?.id) return;
    this.#changeMessage(key, { rating });
    try {
      const session = await this.start();
      if (!session) throw null;
      await widgetRequest(this.#context.options.serviceUrl, `messages/${message.id}/feedback`, { body: { rating }, token: session.jwt });
    } catch (error) {
      this.#changeMessage(key, { rating: message.rating });
      if (error) this.#fail(error, false);
    }
  }

  /** Uploads a file for the next message (POST /attachments), telling `onProgress` the share sent. */
  async upload(file: File, onProgress: (share: number) => void): Promise<Attachment> {
    const session = await this.start();
    if (!session) throw 0;
    return uploadFile(this.#context.options.serviceUrl, session.jwt, file, onProgress);
  }

  /** Sends the visitor's message (and its uploaded `files`), kept in the outbox with its own Idempotency-Key until it is delivered. */
  async send(text: string, files?: Attachment[]): Promise<void> {
    const message = text.trim();
    if ((!message && !files?.length) || this.state.answering) return;
    if (!this.state.open) this.setOpen(true);
    const pageContext = this.pageContext();
    const body = { message, page_url: location.href, ...(pageContext ? { page_context: pageContext } : {}), ...(files?.length ? { attachment_ids: files.map((file) => file.id) } : {}) };
    const key = crypto.getRandomValues(new Uint32Array(4)).join("-");
    await this.#deliver(this.#visitorMessage({ body, key, ...(files?.length ? { files } : {}) }));
  }

  /** Sends (again) a message of the outbox and streams the answer into a new bot message. */
  async #deliver(visitor: ChatMessage): Promise<void> {
    const out = visitor.out!;
    this.#update({ answering: true, notice: null, messages: [...this.state.messages.filter((item) => item.key !== visitor.key), { ...visitor, unsent: undefined }] });
    this.#keep();
    const answer: ChatMessage = { key: this.#nextKey(), role: "bot", content: "", citations: [], streaming: true, lowConfidence: false };
    const change = (patch: Partial<ChatMessage>) => {
      Object.assign(answer, patch);
      this.#update({ messages: this.state.messages.map((item) => (item.key === answer.key ? { ...answer } : item)) });
    };
    const onFrame = (frame: Parameters<Parameters<WidgetApiClient["streamAnswer"]>[2]>[0]) => {
      if (frame.event === "token") change({ content: answer.content + frame.token });
      else if (frame.event === "citations") change({ citations: frame.citations.filter((citation) => /^https?:\/\//i.test(citation.url)) });
      else if (frame.event === "error") change({ content: answer.content || frame.message });
      else if (frame.event === "done") {
        change({ streaming: false, lowConfidence: frame.low_confidence === true, ...(frame.message_id ? { id: frame.message_id } : {}) });
        if (frame.awaiting_human === true) void this.handoff.followServer();
      }
    };
    let delivered = false;
    try {
      // No session (the service is unreachable): not sent, tried again later.
      const session = await this.start();
      if (!session) throw null;
      this.#update({ messages: [...this.state.messages, answer] });
      try {
        await this.#api.streamAnswer(session.jwt, out, onFrame);
      } catch (error) {
        // An expired or refused token: a fresh one (same visitor, same conversation) and one retry.
        if (!(error instanceof WidgetApiError && error.status === 401)) throw error;
        const renewed = await this.start(true);
        if (!renewed) throw error;
        await this.#api.streamAnswer(renewed.jwt, out, onFrame);
      }
      delivered = true;
      this.#failedSends = 0;
      this.#changeMessage(visitor.key, { out: undefined });
      const { role, content, citations, lowConfidence } = answer;
      this.#context.emit("message", { role, content, citations, low_confidence: lowConfidence });
    } catch (error) {
      // Not delivered, as far as the widget knows: shown as not sent, with "Try again", and sent again by itself
      // (the same Idempotency-Key: the service stores it once and answers it once), after Retry-After when there is
      // one; a message the service found invalid (422) only by the visitor's hand.
      const refusal = error instanceof WidgetApiError ? error : null;
      if (refusal?.status != 422) this.#resendLater(refusal?.retryAfter ? refusal.retryAfter * 1000 : undefined);
      this.#changeMessage(visitor.key, { unsent: true });
      if (error) this.#fail(error, false);
    } finally {
      this.#keep();
      // A broken stream's words go: the answer comes whole when the message is sent again.
      if (!(delivered && answer.content)) this.#update({ messages: this.state.messages.filter((item) => item.key !== answer.key) });
      else change({ streaming: false });
      this.#update({ answering: false });
      if (delivered) this.#flush();
    }
  }
}
