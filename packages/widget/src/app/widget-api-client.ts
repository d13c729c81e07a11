import type { Attachment, Citation, InitResponse } from "@frontdesk/contracts";
import type { Identity } from "../shared/embed-context.js";
import { readEventStream } from "./read-event-stream.js";
import { openWidgetRequest, widgetRequest } from "./widget-request.js";

export type InitData = InitResponse["data"];

/** A visitor's message as sent: its body, and its Idempotency-Key (the same each time it is sent again). */
export interface Outgoing {
  body: { message: string; page_url: string; page_context?: Record<string, unknown>; attachment_ids?: string[] };
  key: string;
  /** The files it sends, as shown. */
  files?: Attachment[] | undefined;
}

/** A citation as the stream sends it; `title` is shown when the service sends one. */
export type CitationChip = Citation & { title?: string };

/** One frame of POST /messages/stream. */
export type StreamFrame =
  | { event: "token"; token: string }
  | { event: "citations"; citations: CitationChip[] }
  | { event: "error"; code: string; message: string }
  | { event: "done"; conversation_id: string; message_id?: string; low_confidence?: boolean; awaiting_human?: boolean };

/** The widget API of one service: /api/v1/widget/* under the URL widget.js came from. */
export class WidgetApiClient {
  readonly #serviceUrl: string;
  constructor(serviceUrl: string) {
    this.#serviceUrl = serviceUrl;
  }

  async init(body: { agent_id: string; page_url: string; time_zone?: string; anon_id?: string; new_conversation?: boolean; resume_token?: string | undefined } & Identity): Promise<InitData> {
    return (await widgetRequest<InitResponse>(this.#serviceUrl, "init", { body })).data;
  }

  /** POST /messages/stream with the message's Idempotency-Key: calls `onFrame` for each frame as it arrives. */
  async streamAnswer(token: string, { body, key }: Outgoing, onFrame: (frame: StreamFrame) => void): Promise<void> {
    const response = await openWidgetRequest(this.#serviceUrl, "messages/stream", { body, token, key });
    if (!response.body) throw new TypeError("the answer has no body");
    await readEventStream(response.body, (data) => {
      try {
        onFrame(JSON.parse(data) as StreamFrame);
      } catch {
        // a frame that is not JSON is not ours: skip it
      }
    });
  }
}
