import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../http/app-error.js";
import type { WidgetBuild, WidgetFile } from "./widget-build.js";

/** widget.js is cached briefly, so a release reaches every site within minutes. */
const LOADER_CACHE = "public, max-age=300";
/** Hashed assets never change under their name. */
const ASSET_CACHE = "public, max-age=31536000, immutable";

function sendFile(request: FastifyRequest, reply: FastifyReply, file: WidgetFile, cacheControl: string) {
  // Any page may load the widget: the bundle is an ES module, which browsers fetch with CORS.
  reply
    .header("Access-Control-Allow-Origin", "*")
    .header("Cross-Origin-Resource-Policy", "cross-origin")
    .header("X-Content-Type-Options", "nosniff")
    .header("Cache-Control", cacheControl)
    .header("ETag", file.etag)
    .header("Vary", "Accept-Encoding")
    .type("text/javascript; charset=utf-8");
  const match = request.headers["if-none-match"];
  if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === file.etag)) return reply.code(304).send();
  if (/\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""))) return reply.header("Content-Encoding", "gzip").send(file.gzipped);
  return reply.send(file.body);
}

function notBuilt(): AppError {
  return new AppError("not_found", "The widget is not built on this service (run `npm run build`).");
}

/**
 * GET /widget.js (the loader a site embeds) and GET /widget/assets/{name} (the hashed bundle it
 * loads), served from memory as read at start; see widget-build.ts.
 */
export const widgetAssetRoutes: FastifyPluginAsyncZod<{ build: WidgetBuild }> = async (app, { build }) => {
  app.get("/widget.js", { schema: { hide: true } }, async (request, reply) => {
    if (!build.ready) throw notBuilt();
    return sendFile(request, reply, build.loader, LOADER_CACHE);
  });

  app.get("/widget/assets/:name", { schema: { hide: true, params: z.object({ name: z.string() }) } }, async (request, reply) => {
    if (!build.ready) throw notBuilt();
    const file = build.assets.get(request.params.name);
    if (!file) throw new AppError("not_found", "No widget asset has this name (an older release's asset is replaced by the current one's).");
    return sendFile(request, reply, file, ASSET_CACHE);
  });
};
