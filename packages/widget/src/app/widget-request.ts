// The one way the bundle talks to the widget API (/api/v1/widget/* under the URL widget.js came
// from): the session token as a bearer header (never in a URL), no cookies, and every answer that
// is not a success turned into a WidgetApiError with its status, stable code and Retry-After.

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

export interface WidgetRequest {
  method?: "GET" | "POST";
  /** Sent as JSON; none for a GET. */
  body?: unknown;
  /** The session token. */
  token?: string;
  /** The request outlives the page (an event posted as the visitor follows a link). */
  keepalive?: boolean;
  /** An Idempotency-Key (a message: the same one each time it is sent). */
  key?: string;
}

/** The WidgetApiError an answer that is not a success stands for (a proxy's page keeps its status). */
async function failure(response: Response): Promise<WidgetApiError> {
  let code = "http_error";
  let message = `HTTP ${response.status}`;
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === "string") code = body.error.code;
    if (typeof body.error?.message === "string") message = body.error.message;
  } catch {
    // not our error shape: keep the status
  }
  const retryAfter = Number(response.headers.get("retry-after"));
  return new WidgetApiError(response.status, code, message, Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : null);
}

/** Sends the request; resolves with a successful answer still unread (a stream), rejects with its WidgetApiError or fetch's network error. */
export async function openWidgetRequest(serviceUrl: string, path: string, { method = "POST", body, token, keepalive, key }: WidgetRequest = {}): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (key) headers["idempotency-key"] = key;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(new URL(`api/v1/widget/${path}`, serviceUrl), {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    credentials: "omit",
    mode: "cors",
    ...(keepalive ? { keepalive } : {}),
  });
  if (!response.ok) throw await failure(response);
  return response;
}

/** Sends the request; resolves with the answer's parsed JSON (undefined for 204), rejects as openWidgetRequest does. */
export async function widgetRequest<T>(serviceUrl: string, path: string, request?: WidgetRequest): Promise<T> {
  const response = await openWidgetRequest(serviceUrl, path, request);
  return (response.status === 204 ? undefined : await response.json()) as T;
}
