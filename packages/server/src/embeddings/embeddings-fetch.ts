import { fetch as undiciFetch, type Dispatcher } from "undici";
import { z } from "zod";

/** The part of a successful `POST /embeddings` answer this fetch looks at: each item's `index`. */
const indexedItemsSchema = z.object({ data: z.array(z.looseObject({ index: z.number().int().nonnegative() })) }).loose();

/**
 * The `fetch` the AI SDK's OpenAI-compatible embedding model is given. It does two things the SDK
 * does not: every request gets its own timeout (an AbortSignal covers a whole `embedMany`), and a
 * successful answer's `data` is put in `index` order, because the SDK takes the vectors in the
 * order they come while the API only promises an `index` on each.
 */
/** A server reached through the SSRF guard: its agent checks every address it resolves; `refusal` the IP literals, which skip resolution. */
export interface GuardedRoute {
  dispatcher: Dispatcher;
  refusal(url: URL): string | null;
}

export function createEmbeddingsFetch(timeoutMs: number, guarded?: GuardedRoute): typeof fetch {
  return async (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = guarded ? await guardedFetch(input, { ...init, signal }, guarded) : await fetch(input, { ...init, signal });
    if (!response.ok) return response;
    const text = await response.text();
    // The body handed on is decoded and of another length than the one received.
    const headers = new Headers(response.headers);
    headers.delete("content-encoding");
    headers.delete("content-length");
    const answer = (body: string): Response => new Response(body, { status: response.status, statusText: response.statusText, headers });
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return answer(text); // the SDK reports the invalid JSON itself
    }
    const indexed = indexedItemsSchema.safeParse(parsed);
    if (!indexed.success) return answer(text);
    return answer(JSON.stringify({ ...indexed.data, data: indexed.data.data.toSorted((a, b) => a.index - b.index) }));
  };
}

/**
 * The request through `dispatcher` (a workspace's server: the SSRF guard's agent, which checks every
 * address it connects to), with undici's own fetch, which takes the dispatcher of its own version.
 */
async function guardedFetch(input: Parameters<typeof fetch>[0], init: RequestInit, guarded: GuardedRoute): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  const refused = guarded.refusal(url);
  if (refused !== null) throw new Error(`The embeddings server's address is refused: ${refused}`);
  const answered = await undiciFetch(url, {
    method: init.method ?? "GET",
    headers: Array.from(new Headers(init.headers).entries()),
    ...(typeof init.body === "string" ? { body: init.body } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
    dispatcher: guarded.dispatcher,
  });
  return new Response(await answered.arrayBuffer(), { status: answered.status, statusText: answered.statusText, headers: Array.from(answered.headers.entries()) });
}
