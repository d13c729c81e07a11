import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../http/app-error.js";
import { errorResponse, errors } from "../openapi/route-responses.js";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import { FILE_MEDIA_TYPES } from "../files/detect-file-type.js";
import { findPublicFileContent } from "./source-file-repository.js";

const paramsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9]{1,64}$/, "must be a file id"),
  filename: z.string().max(1000),
});

export const serveFileRouteSchema = {
  tags: ["files"],
  operationId: "getSourceFile",
  summary: "Download a file source's original file",
  description:
    "The file uploaded as a source, at the URL its citations carry (`config.file_url`): public, found by its unguessable " +
    "id; the name in the path is for the browser only. Served with `X-Content-Type-Options: nosniff`, " +
    "`Content-Security-Policy: sandbox; default-src 'none'` (an HTML or SVG upload runs no script on this origin) and " +
    "`Content-Disposition` (`inline` for PDF and plain text, `attachment` for the rest). Limited per client IP " +
    "(FRONTDESK_RATE_LIMIT_FILES_PER_MINUTE, 60 a minute by default).",
  params: paramsSchema,
  response: {
    200: { description: "The file's bytes, with the media type read from its content.", content: { "application/octet-stream": { schema: z.instanceof(Buffer) } } },
    404: errorResponse("`not_found`: no file with this id (it may have been deleted with its source)."),
    422: errorResponse("`validation_failed`: the id cannot be a file id."),
    429: errors.rateLimited,
    500: errors.internal,
  },
};

/** Shown in the browser: PDF (so that `#page=3` opens the page) and plain text. Everything else is downloaded. */
const INLINE_TYPES = new Set<string>([FILE_MEDIA_TYPES.pdf, FILE_MEDIA_TYPES.text]);

/** RFC 6266's filename*: the name, percent-encoded as UTF-8, plus an ASCII fallback. */
function contentDisposition(type: "inline" | "attachment", filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** GET /api/v1/files/{id}/{filename}: the original files of file sources, for visitors following a citation. */
export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;
  // Counted before the id is even checked: guessing ids costs the same budget as downloading.
  app.addHook("onRequest", async (request, reply) => enforceRateLimit(services.limiter, reply, ["files", request.ip]));
  app.get("/:id/:filename", { schema: serveFileRouteSchema }, async (request, reply) => {
    const file = await findPublicFileContent(services.db, request.params.id);
    if (!file) throw new AppError("not_found", "No file with this id.");
    const textual = file.mediaType.startsWith("text/");
    return reply
      .code(200)
      .header("content-type", textual ? `${file.mediaType}; charset=utf-8` : file.mediaType)
      .header("content-disposition", contentDisposition(INLINE_TYPES.has(file.mediaType) ? "inline" : "attachment", file.filename))
      .header("x-content-type-options", "nosniff")
      .header("content-security-policy", "sandbox; default-src 'none'")
      .header("cross-origin-resource-policy", "cross-origin")
      .header("cache-control", "private, max-age=300")
      .send(file.content);
  });
};
