import type { FastifyRequest } from "fastify";
import { AppError } from "./app-error.js";

const UTF8_NAMES = new Set(["utf-8", "utf8", "us-ascii"]);

/**
 * Bodies are read as UTF-8. A Content-Type naming another charset (`charset=utf-16`, `latin1` …)
 * is refused with 415 rather than decoded wrongly and stored as mojibake.
 */
export function assertUtf8Body(request: FastifyRequest): void {
  const header = request.headers["content-type"];
  if (!header) return;
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(header);
  if (!match) return;
  const charset = match[1]!.toLowerCase();
  if (!UTF8_NAMES.has(charset)) {
    throw new AppError("unsupported_media_type", `Request bodies must be UTF-8; charset=${charset} is not accepted.`);
  }
}
