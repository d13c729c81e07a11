import type { Citation, InitResponse } from "@frontdesk/contracts";
import { readEventStream } from "./read-event-stream.js";

export type InitData = InitResponse["data"];

/** A citation as the stream sends it; `title` is shown when the service sends one. */
export type CitationChip = Citation & { title?: string };

/** One frame of POST /messages/stream. */
export type StreamFrame =
  | { event: "token"; token: string }
  | { event: "citations"; citations: CitationChip[] }
  | { event: "error"; code: string; message: string }
  | { event: "done"; conversation_id: string; message_id?: string; low_confidence?: boolean; awaiting_human?: boolean };

/** An answer of the widget API that is not a success, in the service's error shape. */
export class WidgetApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait, from Retry-After (429). */
    readonly retryAfter: number | null,
  ) {
    super(message);
  }
}

export async function failure(response: Response): Promise<WidgetApiError> {
  let code = "http_error";
  let message = `HTTP ${response.status}`;
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === "string") code = body.error.code;
    if (typeof body.error?.message === "string") message = body.error.message;
  } catch {
    // not our error shape (a proxy's page): keep the status
  }
  const retryAfter = Number(response.headers.get("retry-after"));
  return new WidgetApiError(response.status, code, message, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
}

/** The widget API of one service: /api/v1/widget/* under the URL widget.js came from. */
export class WidgetApiClient {
  constructor(private readonly serviceUrl: string) {}

  private request(path: string, body: unknown, token?: string): Promise<Response> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    return fetch(new URL(`api/v1/widget/${path}`, this.serviceUrl), {
      method: "POST",
      headers,
      body: JSON.stringify(body),
      credentials: "omit",
      mode: "cors",
    });
  }

  async init(body: { agent_id: string; page_url: string; anon_id?: string; new_conversation?: boolean }): Promise<InitData> {
    const response = await this.request("init", body);
    if (!response.ok) throw await failure(response);
    return ((await response.json()) as InitResponse).data;
  }

  /** POST /messages/stream: calls `onFrame` for each frame as it arrives. */
  async streamAnswer(token: string, body: { message: string; page_url: string; page_context?: Record<string, unknown> }, onFrame: (frame: StreamFrame) => void): Promise<void> {
    const response = await this.request("messages/stream", body, token);
    if (!response.ok || !response.body) throw await failure(response);
    await readEventStream(response.body, (data) => {
      try {
        onFrame(JSON.parse(data) as StreamFrame);
      } catch {
        // a frame that is not JSON is not ours: skip it
      }
    });
  }
}
