const integer = (description: string) => ({ description, schema: { type: "integer" } });

const WINDOW_HEADERS = {
  "X-RateLimit-Limit": integer("Requests allowed in the tightest window this request was counted in."),
  "X-RateLimit-Remaining": integer("Requests left in that window."),
  "X-RateLimit-Reset": integer("When that window resets (Unix seconds)."),
};
const RETRY_AFTER = { "Retry-After": integer("Seconds to wait before retrying (the windows are fixed: no back-off needed).") };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Every documented operation that can answer 429 is rate limited (`ratelimit/enforce-rate-limit.ts`
 * writes the window headers on its answers): its successes carry the X-RateLimit-* headers, its
 * 429 those and Retry-After. Route schemas cannot say so themselves: the type provider keeps only
 * a response's description and content.
 */
export function describeRateLimitHeaders<Doc extends object>(document: Doc): Doc {
  const paths = "paths" in document && isRecord(document.paths) ? document.paths : {};
  for (const pathItem of Object.values(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const operation of Object.values(pathItem)) {
      const responses = isRecord(operation) && isRecord(operation.responses) ? operation.responses : null;
      if (!responses || !isRecord(responses["429"])) continue;
      for (const [status, response] of Object.entries(responses)) {
        if (!isRecord(response)) continue;
        if (status === "429") response.headers = { ...RETRY_AFTER, ...WINDOW_HEADERS };
        else if (status.startsWith("2")) response.headers = { ...WINDOW_HEADERS };
      }
    }
  }
  return document;
}
