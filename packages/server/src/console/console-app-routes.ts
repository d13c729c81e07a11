import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../config/config.js";
import { AppError } from "../http/app-error.js";
import { builtFile, type BuiltFile } from "../http/built-file.js";

/** Where `npm run build` puts the console (packages/console/dist), from src/console or dist/console alike. */
export const DEFAULT_CONSOLE_BUILD_DIRECTORY = fileURLToPath(new URL("../../../console/dist/", import.meta.url));

/** Hashed names esbuild writes (app-34PXE56G.js, app-PNE5T6HL.css, chunk-…js): nothing else is served. */
const ASSET_NAME = /^[A-Za-z0-9_-]{1,100}\.(js|css)$/;
/** Hashed assets never change under their name. */
const ASSET_CACHE = "public, max-age=31536000, immutable";
/** index.html names the current assets: always revalidated, so a release is picked up on the next load. */
const PAGE_CACHE = "no-cache";
/** Where build.mjs leaves room for the realtime settings in index.html. */
const REALTIME_PLACEHOLDER = "<!--frontdesk-realtime-->";

interface ServedFile extends BuiltFile {
  type: string;
}

type ConsoleBuild = { ready: true; page: ServedFile; assets: ReadonlyMap<string, ServedFile>; pushWorker: ServedFile } | { ready: false; problem: string };

function servedFile(body: Buffer, type: string): ServedFile {
  return { ...builtFile(body), type };
}

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The realtime server's origin as browsers reach it (init's `reverb`, the same for the console). */
function realtimeOrigin(config: Config): string {
  const { host, port, scheme } = config.realtime.descriptor;
  return `${scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/**
 * The console's page policy: scripts, styles and fonts from this origin only (no inline code, no
 * eval), API calls to this origin and the realtime server, frames of this origin only (the widget's
 * preview, the demo page), nothing may frame it.
 */
export function consoleContentSecurityPolicy(config: Config): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${realtimeOrigin(config)}`,
    "frame-src 'self'",
    "worker-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Reads the built console once, at start: index.html (with the realtime settings written in, as a
 * `<meta name="frontdesk-realtime">` the app reads: no inline script) and the hashed files of
 * assets/. A missing build is not fatal (the API works without it); `problem` says what to do.
 */
export function loadConsoleBuild(config: Config, directory: string = DEFAULT_CONSOLE_BUILD_DIRECTORY): ConsoleBuild {
  try {
    const settings = { app_key: config.realtime.appKey, ...config.realtime.descriptor };
    const meta = `<meta name="frontdesk-realtime" content="${escapeAttribute(JSON.stringify(settings))}">`;
    const template = readFileSync(join(directory, "index.html"), "utf8");
    const page = servedFile(Buffer.from(template.replace(REALTIME_PLACEHOLDER, meta)), "text/html; charset=utf-8");
    const assets = new Map<string, ServedFile>();
    for (const name of readdirSync(join(directory, "assets"))) {
      if (!ASSET_NAME.test(name)) continue;
      const type = name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
      assets.set(name, servedFile(readFileSync(join(directory, "assets", name)), type));
    }
    const pushWorker = servedFile(readFileSync(join(directory, "push-worker.js")), "text/javascript; charset=utf-8");
    return { ready: true, page, assets, pushWorker };
  } catch (error) {
    const reason = error instanceof Error && "code" in error && error.code === "ENOENT" ? "is not built" : `could not be read (${String(error)})`;
    return { ready: false, problem: `the console at ${directory} ${reason}: /console answers 404 until \`npm run build\` builds packages/console` };
  }
}

function sendFile(request: FastifyRequest, reply: FastifyReply, file: ServedFile, cacheControl: string) {
  reply
    .header("X-Content-Type-Options", "nosniff")
    .header("Cache-Control", cacheControl)
    .header("ETag", file.etag)
    .header("Vary", "Accept-Encoding")
    .type(file.type);
  const match = request.headers["if-none-match"];
  if (match && match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === file.etag)) return reply.code(304).send();
  if (/\bgzip\b/.test(String(request.headers["accept-encoding"] ?? ""))) return reply.header("Content-Encoding", "gzip").send(file.gzipped);
  return reply.send(file.body);
}

/**
 * The console web app: GET /console and every client route under it (/console/inbox/…,
 * /console/set-password) answer index.html; GET /console/assets/{name} the hashed bundle.
 */
export const consoleAppRoutes: FastifyPluginAsyncZod<{ directory?: string }> = async (app, options) => {
  const build = loadConsoleBuild(app.services.config, options.directory);
  if (!build.ready) app.log.warn(build.problem);
  const policy = consoleContentSecurityPolicy(app.services.config);
  const notBuilt = () => new AppError("not_found", "The console is not built on this service (run `npm run build`).");

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!build.ready) throw notBuilt();
    if (request.url.startsWith("/console/assets/")) throw new AppError("not_found", "No console asset has this name.");
    reply
      .header("Content-Security-Policy", policy)
      .header("Referrer-Policy", "same-origin")
      .header("X-Frame-Options", "DENY")
      .header("Cross-Origin-Opener-Policy", "same-origin");
    return sendFile(request, reply, build.page, PAGE_CACHE);
  };
  app.get("/console", { schema: { hide: true } }, sendPage);
  app.get("/console/*", { schema: { hide: true } }, sendPage);

  // The Web Push service worker (packages/console/src/push/push-worker.ts): at a fixed address, so
  // it is revalidated on every update check; its scope is its own folder, /console/. It fetches
  // nothing, so its own policy allows nothing.
  app.get("/console/push-worker.js", { schema: { hide: true } }, async (request, reply) => {
    if (!build.ready) throw notBuilt();
    reply.header("Content-Security-Policy", "default-src 'none'").header("Service-Worker-Allowed", "/console/");
    return sendFile(request, reply, build.pushWorker, PAGE_CACHE);
  });

  app.get("/console/assets/:name", { schema: { hide: true, params: z.object({ name: z.string() }) } }, async (request, reply) => {
    if (!build.ready) throw notBuilt();
    const file = build.assets.get(request.params.name);
    if (!file) throw new AppError("not_found", "No console asset has this name (an older release's asset is replaced by the current one's).");
    return sendFile(request, reply, file, ASSET_CACHE);
  });
};
