import type { ConversationMessage, ConversationStatus } from "@frontdesk/contracts";
import { chatMessageOf, insertBySeq, type ChatMessage } from "../chat-message.js";
import type { InitData } from "../widget-api-client.js";
import { WidgetApiError } from "../widget-request.js";
import { HandoffApi, type VisitorConversation } from "./handoff-api.js";
import type { RealtimeConnection } from "./realtime-connection.js";

/** The handoff as the visitor sees it. */
export interface HandoffState {
  status: ConversationStatus;
  /** The operator who has the conversation. */
  assignee: string | null;
  /** The operator typing now, by name. */
  operatorTyping: string | null;
  /** No operator online: an e-mail is asked for instead of waiting (offered → sending → saved). */
  lead: "none" | "offered" | "sending" | "saved";
  leadError: boolean;
  /** The conversation closed: its transcript is offered by e-mail (offered → sending → sent; offered again as `invalid` after a 422, `limit` after a 429). */
  transcript: "none" | "offered" | "sending" | "sent" | "invalid" | "limit";
  /** POST /request-human in flight. */
  requesting: boolean;
}

export const NO_HANDOFF: HandoffState = { status: "bot", assignee: null, operatorTyping: null, lead: "none", leadError: false, transcript: "none", requesting: false };

/** What the handoff needs of the chat session. */
export interface HandoffHost {
  messages(): ChatMessage[];
  setMessages(messages: ChatMessage[]): void;
  setHandoff(state: HandoffState): void;
  /** An answer is streaming into this tab (its bot message arrives through the stream, not the channel). */
  answering(): boolean;
  nextKey(): string;
  /** A valid session: started, or renewed when `renew` (its token was refused). */
  session(renew?: boolean): Promise<InitData | null>;
  fail(error: unknown): void;
  /** A message arrived through the channel or a catch-up, and is now shown (the page hears it as Frontdesk.on("message")). */
  received(message: ChatMessage): void;
  /** The status changed (the page hears it as Frontdesk.on("handoff")). */
  statusChanged(detail: { status: ConversationStatus; assignee: { name: string } | null }): void;
}

const TYPING_EVERY_MS = 2000;
/** An operator's typing indicator fades if no `typing: false` comes (a closed console tab). */
const TYPING_SHOWN_MS = 8000;

/**
 * The human handoff of one conversation: asking for a person, the state and the operator's messages
 * and typing live on the conversation's channel (the realtime client loaded only then), the catch-up
 * by seq after each (re)subscription, the visitor's typing, and the e-mail when nobody is online.
 */
export class HandoffController {
  state: HandoffState = NO_HANDOFF;
  #init: InitData | null = null;
  #lastSeq = 0;
  #connection: RealtimeConnection | null = null;
  #live = false;
  #lastTypingSent = 0;
  #typingTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #api: HandoffApi;

  readonly #host: HandoffHost;
  constructor(
    serviceUrl: string,
    host: HandoffHost,
  ) {
    this.#host = host;
    this.#api = new HandoffApi(serviceUrl, () => this.#init?.jwt ?? "");
  }

  #set(change: Partial<HandoffState>): void {
    this.state = { ...this.state, ...change };
    this.#host.setHandoff(this.state);
  }

  /** After every init: a new conversation (first start, "new conversation") resets the handoff and reads its state. */
  started(data: InitData): void {
    const changed = this.#init?.conversation_id !== data.conversation_id;
    this.#init = data;
    if (!changed) return;
    this.#connection?.disconnect();
    this.#connection = null;
    this.#live = false;
    this.#lastSeq = data.messages.reduce((seq, message) => Math.max(seq, message.seq ?? 0), 0);
    this.#set(NO_HANDOFF);
    void this.#refresh();
  }

  /** Frontdesk.reset(): the forgotten visitor's conversation is no longer listened to. */
  stop(): void {
    this.#connection?.disconnect();
    this.#connection = null;
    this.#live = false;
    this.#init = null;
    clearTimeout(this.#typingTimer);
    this.#set(NO_HANDOFF);
  }

  /** A call with the session token, renewed once when it is refused. */
  async #authorized<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof WidgetApiError && error.status === 401) || !(await this.#host.session(true))) throw error;
      return call();
    }
  }

  /** GET /conversation: the status, the assignee and whether anyone is online; live events from now on unless the bot has it. */
  async #refresh(): Promise<void> {
    try {
      this.#apply(await this.#authorized(() => this.#api.conversation()));
    } catch {
      // The state is read again after the next (re)subscription.
    }
  }

  #apply(conversation: VisitorConversation): void {
    // Outside office hours nobody is expected: the e-mail is asked for as when nobody is online.
    this.#changeStatus(conversation.status, conversation.assignee?.name ?? null, conversation.operators_online && this.#init?.availability.open_now !== false);
    if (conversation.status !== "bot") this.#goLive();
  }

  /** A new status; the e-mail form is offered while waiting with nobody online, and withdrawn once the wait is over. */
  #changeStatus(status: ConversationStatus, assignee: string | null, operatorsOnline: boolean | null): void {
    let lead = this.state.lead;
    if (status === "awaiting_human" && operatorsOnline === false && lead === "none") lead = "offered";
    if (status !== "awaiting_human" && lead === "offered") lead = "none";
    // Closed (by an operator, or the visitor elsewhere): the transcript is offered; withdrawn if it reopens before being asked for.
    let transcript = this.state.transcript;
    if (status === "closed" && transcript === "none") transcript = "offered";
    if (status !== "closed" && transcript !== "sent") transcript = "none";
    const changed = status !== this.state.status || assignee !== this.state.assignee;
    this.#set({ status, assignee, lead, transcript });
    if (changed) this.#host.statusChanged({ status, assignee: assignee === null ? null : { name: assignee } });
  }

  /**
   * The service says the conversation awaits a person while the widget still shows the bot (the
   * visitor asked for one in a message): its state, as after a reload, and live from now on.
   */
  async followServer(): Promise<void> {
    if (this.state.status === "bot") await this.#refresh();
  }

  /** "Talk to a person": POST /request-human, then the state live; nobody online, or outside office hours → the e-mail form at once. */
  async requestHuman(): Promise<void> {
    if (this.state.requesting || this.state.status === "awaiting_human" || this.state.status === "human") return;
    this.#set({ requesting: true });
    try {
      if (!(await this.#host.session())) return;
      const answer = await this.#authorized(() => this.#api.requestHuman());
      this.#changeStatus(answer.status, this.state.assignee, answer.operators_online && !answer.outside_hours);
      this.#goLive();
    } catch (error) {
      this.#host.fail(error);
    } finally {
      this.#set({ requesting: false });
    }
  }

  /** Loads the realtime chunk and subscribes to the conversation's channel (once per conversation). */
  #goLive(): void {
    const init = this.#init;
    if (this.#live || !init) return;
    this.#live = true;
    void import("./realtime-connection.js").then(({ connectConversation }) => {
      if (this.#init?.conversation_id !== init.conversation_id) return;
      this.#connection = connectConversation({
        reverb: init.reverb,
        conversationId: init.conversation_id,
        authorize: (socketId, channelName) => this.#authorized(() => this.#api.authorizeChannel(socketId, channelName)),
        handlers: {
          message: (message) => this.#receive([message], true),
          typing: (event) => {
            if (event.role !== "operator") return;
            clearTimeout(this.#typingTimer);
            this.#set({ operatorTyping: event.typing ? event.name || "" : null });
            if (event.typing) this.#typingTimer = setTimeout(() => this.#set({ operatorTyping: null }), TYPING_SHOWN_MS);
          },
          updated: (event) => {
            this.#lastSeq = Math.max(this.#lastSeq, event.seq);
            this.#changeStatus(event.status, event.assignee?.name ?? null, null);
          },
          subscribed: () => void this.#catchUp(),
        },
      });
    });
  }

  /** After (re)subscribing: what was published since the last seq this widget saw, then the state. */
  async #catchUp(): Promise<void> {
    try {
      // Its own cursor: a live message meanwhile moves #lastSeq past the pages still to fetch.
      for (let after = this.#lastSeq; ; ) {
        const page = await this.#authorized(() => this.#api.messagesAfter(after));
        this.#receive(page.messages, false);
        if (!page.has_more || page.messages.length === 0) break;
        after = page.messages[page.messages.length - 1]!.seq ?? after;
      }
      this.#apply(await this.#authorized(() => this.#api.conversation()));
    } catch {
      // Tried again at the next reconnect.
    }
  }

  /** Adds messages the visitor does not show yet (by id; this tab's own messages by role and text), each in its place by seq. */
  #receive(incoming: ConversationMessage[], live: boolean): void {
    const messages = [...this.#host.messages()];
    const arrived: ChatMessage[] = [];
    let seenSeq: number | null = null;
    for (const message of incoming) {
      this.#lastSeq = Math.max(this.#lastSeq, message.seq ?? 0);
      if (messages.some((shown) => shown.id === message.id)) continue;
      // The answer streaming into this tab is shown by the stream.
      if (live && message.role === "bot" && this.#host.answering()) continue;
      const own = messages.find((shown) => !shown.id && !shown.streaming && shown.role === message.role && shown.content === message.content);
      if (own) {
        messages[messages.indexOf(own)] = { ...own, id: message.id, seq: message.seq };
        continue;
      }
      if (message.role === "operator") {
        clearTimeout(this.#typingTimer);
        this.#set({ operatorTyping: null });
        seenSeq = message.seq;
      }
      const shown = chatMessageOf(message, this.#host.nextKey());
      insertBySeq(messages, shown);
      arrived.push(shown);
    }
    this.#host.setMessages(messages);
    for (const message of arrived) this.#host.received(message);
    // An operator's reply shown live is acknowledged, so it is not e-mailed as unseen (a catch-up's GET counts already).
    // A hint: missing it only means the reply may also arrive by e-mail.
    if (live && seenSeq) this.#api.seen(seenSeq).catch(() => undefined);
  }

  /** The visitor is typing: POST /typing, at most once every 2 seconds. */
  typed(): void {
    const now = Date.now();
    if (!this.#init || now - this.#lastTypingSent < TYPING_EVERY_MS) return;
    this.#lastTypingSent = now;
    this.#api.typing().catch(() => {
      // Typing is a hint: a failure is not the visitor's concern.
    });
  }

  /**
   * "Email me the transcript": an address typed here is left as the lead first (POST /leads), then the
   * transcript is asked for without one, so it goes only to the lead's address (the service refuses any other).
   */
  async emailTranscript(email: string): Promise<void> {
    this.#set({ transcript: "sending" });
    try {
      if (email) await this.#authorized(() => this.#api.lead(email.trim()));
      await this.#authorized(() => this.#api.transcript());
      this.#set({ transcript: "sent" });
    } catch (error) {
      const status = error instanceof WidgetApiError ? error.status : 0;
      this.#set({ transcript: status === 429 ? "limit" : status === 422 ? "invalid" : "offered" });
      if (status !== 422 && status !== 429) this.#host.fail(error);
    }
  }

  /** The e-mail left instead of waiting: POST /leads. */
  async leaveEmail(email: string): Promise<void> {
    this.#set({ lead: "sending", leadError: false });
    try {
      await this.#authorized(() => this.#api.lead(email.trim()));
      this.#set({ lead: "saved" });
    } catch (error) {
      this.#set({ lead: "offered", leadError: true });
      if (!(error instanceof WidgetApiError && error.status === 422)) this.#host.fail(error);
    }
  }
}
