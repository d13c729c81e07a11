import { EmbeddingError } from "../embeddings/embedding-error.js";
import { FetchError } from "../network/fetch-error.js";

/** Why a page or source could not be indexed: a stable code, a message, and whether a retry may help. */
export class IngestFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly transient = false,
  ) {
    super(message);
    this.name = "IngestFailure";
  }

  get detail(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

/**
 * Said with every refusal of the SSRF guard (stored on the source or page, shown by the API):
 * why the guard is on by default and which setting lifts it.
 */
export const BLOCKED_ADDRESS_ADVICE =
  "The crawler refuses loopback, private, link-local, CGNAT and cloud-metadata addresses by default, so that a pushed URL " +
  "cannot make this server reach services on its own network (server-side request forgery). To crawl a site on a private " +
  "network, set FRONTDESK_CRAWLER_ALLOW_PRIVATE_NETWORKS=true, only where everyone who can push sources is trusted.";

/** Maps whatever a stage threw to an IngestFailure. */
export function toIngestFailure(error: unknown): IngestFailure {
  if (error instanceof IngestFailure) return error;
  if (error instanceof FetchError && error.code === "blocked_address") {
    return new IngestFailure(error.code, `${error.message}. ${BLOCKED_ADDRESS_ADVICE}`, false);
  }
  if (error instanceof FetchError) return new IngestFailure(error.code, error.message, error.transient);
  if (error instanceof EmbeddingError) {
    const transient = error.failure === "provider_unavailable" || error.failure === "worker_failed" || error.failure === "overloaded";
    return new IngestFailure("embedding_failed", error.message, transient);
  }
  return new IngestFailure("internal_error", error instanceof Error ? error.message : String(error), true);
}
