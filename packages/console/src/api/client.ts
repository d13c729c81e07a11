import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./generated/frontdesk-api.js";

export type Schemas = components["schemas"];

/** An answer of the API in its error shape ({"error":{"code","message"}}), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string[]>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type ErrorBody = { error?: { code?: string; message?: string; fields?: Record<string, string[]> } };

const signedOutListeners = new Set<() => void>();
/** Called when a request answers 401: the session ended (signed out elsewhere, expired, password changed). */
export function onSignedOut(listener: () => void): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/**
 * The console's session rides on the HttpOnly cookie the sign-in sets; nothing of it is readable
 * here (no token in localStorage). CSRF: the server requires `Origin` equal to the public URL on
 * every state-changing request, a header the browser writes itself on same-origin POST/DELETE
 * and no script can forge, so there is nothing to add; this middleware pins requests to the
 * console's own origin (a cookie never goes anywhere else) and reports an ended session.
 */
const sessionMiddleware: Middleware = {
  onRequest({ request }) {
    return new Request(request, { credentials: "same-origin", mode: "same-origin" });
  },
  onResponse({ response, schemaPath, request }) {
    if (response.status === 401 && !(schemaPath === "/api/v1/console/session" && request.method === "POST")) {
      for (const listener of signedOutListeners) listener();
    }
    return undefined;
  },
};

/** The typed client of the console API, generated from the service's OpenAPI document at build time. */
export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(sessionMiddleware);

/** The data of a successful answer, or an ApiError with the server's code and message. */
export async function dataOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch (error) {
    throw new ApiError(0, "network_error", "The service could not be reached. Check the connection and try again.");
  }
  if (result.response.ok && result.error === undefined) return result.data as T;
  const body = (result.error ?? {}) as ErrorBody;
  throw new ApiError(
    result.response.status,
    body.error?.code ?? "unknown_error",
    body.error?.message ?? `The service answered ${result.response.status}.`,
    body.error?.fields,
  );
}

/** A sentence for the person at the screen. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
