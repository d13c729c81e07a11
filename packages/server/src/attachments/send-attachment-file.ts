import type { FastifyReply } from "fastify";
import type { StoredAttachmentContent } from "./attachment-repository.js";

/** RFC 6266's filename*: the name, percent-encoded as UTF-8, plus an ASCII fallback. */
function contentDisposition(type: "inline" | "attachment", filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * An attachment's bytes with the headers file sources are served with (sources/file-routes.ts):
 * the media type read from the content and `nosniff`, a sandboxing CSP, and a disposition: an
 * image inline (its thumbnail, opened in a tab), a PDF downloaded (a PDF can carry scripts and
 * forms; it is opened by the visitor's own reader, never rendered on this origin). Private to the
 * browser's cache: no shared cache keeps a file served behind a signature or a session.
 */
export function sendAttachmentFile(reply: FastifyReply, file: StoredAttachmentContent): FastifyReply {
  return reply
    .code(200)
    .header("content-type", file.mediaType)
    .header("content-disposition", contentDisposition(file.mediaType === "application/pdf" ? "attachment" : "inline", file.filename))
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", "sandbox; default-src 'none'")
    .header("cross-origin-resource-policy", "cross-origin")
    .header("referrer-policy", "no-referrer")
    .header("cache-control", "private, max-age=300")
    .send(file.content);
}
