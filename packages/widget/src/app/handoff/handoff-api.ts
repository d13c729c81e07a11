import type { ConversationMessage, ConversationStatus } from "@frontdesk/contracts";
import { widgetRequest } from "../widget-request.js";

/** GET /conversation: the state as the visitor sees it. */
export interface VisitorConversation {
  status: ConversationStatus;
  assignee: { name: string } | null;
  operators_online: boolean;
  human_requested_at: string | null;
  updated_seq: number | null;
}

/** POST /request-human's answer. */
export interface HumanRequest {
  status: ConversationStatus;
  operators_online: boolean;
  outside_hours: boolean;
}

/**
 * The handoff's routes of the widget API (/api/v1/widget/*): the conversation's state, what was
 * missed since a seq, asking for a person, the visitor's typing, a lead, and the realtime
 * channel's signature. The session token always travels as a bearer header, never in a URL.
 */
export class HandoffApi {
  readonly #serviceUrl: string;
  readonly #token: () => string;
  constructor(
    serviceUrl: string,
    /** The current session token (renewed tokens are picked up on the next call). */
    token: () => string,
  ) {
    this.#token = token;
    this.#serviceUrl = serviceUrl;
  }

  async #call<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    return (await this.#send<{ data: T } | undefined>(method, path, body))?.data as T;
  }

  /** The answer's JSON (undefined for 204), or the service's error. */
  #send<T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
    return widgetRequest<T>(this.#serviceUrl, path, { method, body, token: this.#token() });
  }

  conversation(): Promise<VisitorConversation> {
    return this.#call("GET", "conversation");
  }

  messagesAfter(seq: number): Promise<{ messages: ConversationMessage[]; has_more: boolean }> {
    return this.#call("GET", `conversation/messages?after_seq=${seq}`);
  }

  /** POST /conversation/seen: the visitor was shown the messages up to `seq` (an operator's reply is then not e-mailed). */
  seen(seq: number): Promise<void> {
    return this.#call("POST", "conversation/seen", { seq });
  }

  requestHuman(): Promise<HumanRequest> {
    return this.#call("POST", "request-human", {});
  }

  typing(): Promise<void> {
    return this.#call("POST", "typing", { typing: true });
  }

  lead(email: string): Promise<unknown> {
    return this.#call("POST", "leads", { email });
  }

  /** POST /conversation/transcript: to the address left with lead() (202 queued, or waiting for the service's e-mail set-up). */
  transcript(): Promise<unknown> {
    return this.#call("POST", "conversation/transcript", {});
  }

  /** POST /broadcasting/auth: the signature of `channelName` for the realtime connection `socketId`. */
  authorizeChannel(socketId: string, channelName: string): Promise<{ auth: string }> {
    // Answered as pusher-js expects it, without the `data` envelope.
    return this.#send<{ auth: string }>("POST", "broadcasting/auth", { socket_id: socketId, channel_name: channelName });
  }
}
