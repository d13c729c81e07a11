import { z } from "zod";

/** The part of a successful `POST /embeddings` answer this fetch looks at: each item's `index`. */
const indexedItemsSchema = z.object({ data: z.array(z.looseObject({ index: z.number().int().nonnegative() })) }).loose();

/**
 * The `fetch` the AI SDK's OpenAI-compatible embedding model is given. It does two things the SDK
 * does not: every request gets its own timeout (an AbortSignal covers a whole `embedMany`), and a
 * successful answer's `data` is put in `index` order, because the SDK takes the vectors in the
 * order they come while the API only promises an `index` on each.
 */
export function createEmbeddingsFetch(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    const response = await fetch(input, { ...init, signal });
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
