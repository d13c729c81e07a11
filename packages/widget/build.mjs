#!/usr/bin/env node
// Builds the widget into dist/: the realtime client (assets/realtime-[hash].js), then the bundle that
// imports it when a person is asked for (assets/app-[hash].js); ES modules with content-hashed names,
// served immutable. Then the loader widget.js (a classic script that knows the bundle's hashed name,
// served with a short cache). dist/manifest.json lists the files
// with their gzipped sizes (test/size-budget.test.ts holds them to the budgets).
import { build } from "esbuild";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const assets = join(dist, "assets");
// Browsers of the last few years: ES2020 (optional chaining, dynamic import), constructable stylesheets.
const target = ["chrome93", "firefox101", "safari16.4", "edge93"];

rmSync(dist, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

// The realtime client first, a module of its own: pusher-js's worker build, the same client over
// WebSocket and fetch without the browser build's XHR, JSONP and SockJS fallbacks the widget never
// enables (16 KB gzipped, not 19). Built apart from the bundle (not split from it), so that the
// helpers its CommonJS needs stay in it instead of a third file the bundle would load for nothing.
// Built here from pusher-js's TypeScript source as its webpack config builds the worker bundle
// (bare imports resolved in src/runtimes/worker, then src/runtimes and src; the same defines), as
// ES modules that esbuild minifies and joins without webpack's module wrappers: 16.0 KB gzipped
// rather than its prebuilt pusher.worker.min.js's 17.1. Two of its features the widget never uses
// are left out, each module replaced by a class that says so if it is ever reached: end-to-end
// encrypted channels (`private-encrypted-*`; the widget subscribes to its private conversation
// channel only, and the two @stablelib decoders they import are not installed by pusher-js's
// published package anyway) and user sign-in with its watchlist (`pusher.signin()`, which the
// widget never calls; a presence channel's authorization, which the widget never asks for, then
// finds no signed-in user as it would without sign-in): 15,373 → 14,080 bytes gzipped. Its modules import `./pusher`,
// meaning the class in pusher.ts (webpack resolves .ts first), not pusher.js, the CommonJS entry
// that re-exports it.
const PUSHER_SOURCE = join(dirname(fileURLToPath(import.meta.resolve("pusher-js/package.json"))), "src");
const PUSHER_VERSION = JSON.parse(readFileSync(join(PUSHER_SOURCE, "../package.json"), "utf8")).version;
const pusherFromSource = {
  name: "pusher-from-source",
  setup(builder) {
    const pusherClass = join(PUSHER_SOURCE, "core/pusher");
    builder.onResolve({ filter: /pusher(-js)?$/ }, (args) =>
      args.path === "pusher-js" || resolve(args.resolveDir, args.path) === pusherClass || args.path === "core/pusher" ? { path: `${pusherClass}.ts` } : undefined,
    );
    // Its Logger writes only when Pusher.log or Pusher.logToConsole is set, which nothing can do to
    // the widget's private copy: a logger that does nothing takes its place.
    builder.onLoad({ filter: /[\\/]core[\\/]logger\.ts$/ }, () => ({ contents: "export default { debug() {}, warn() {}, error() {} };", loader: "ts" }));
    builder.onLoad({ filter: /[\\/]core[\\/]channels[\\/]encrypted_channel\.ts$/ }, () => ({
      contents: 'export default class { constructor() { throw new Error("encrypted channels are not built into the widget"); } }',
      loader: "ts",
    }));
    // The widget subscribes to its private conversation channel only, never to a presence channel
    // (the operators' presence is the console's): the class and its member list go.
    builder.onLoad({ filter: /[\\/]core[\\/]channels[\\/]presence_channel\.ts$/ }, () => ({
      contents: 'export default class { constructor() { throw new Error("presence channels are not built into the widget"); } }',
      loader: "ts",
    }));
    // Its transports are WebSocket only (enabledTransports: ["ws", "wss"], realtime-connection.ts): the
    // HTTP streaming and polling fallbacks, their sockets and XHR requests are never built.
    builder.onLoad({ filter: /[\\/]runtimes[\\/]isomorphic[\\/]http[\\/]http\.ts$/ }, () => ({
      contents:
        'const unused = () => { throw new Error("HTTP fallback transports are not built into the widget"); };\n' +
        "export default { createStreamingSocket: unused, createPollingSocket: unused, createSocket: unused, createXHR: unused, createRequest: unused };",
      loader: "ts",
    }));
    builder.onLoad({ filter: /[\\/]core[\\/]user\.ts$/ }, () => ({
      contents: 'export default class { signinDonePromise = null; user_data = null; signin() { throw new Error("user sign-in is not built into the widget"); } }',
      loader: "ts",
    }));
  },
};
const REALTIME_SOURCE = join(here, "src/app/handoff/realtime-connection.ts");
const realtime = await build({
  entryPoints: { realtime: REALTIME_SOURCE },
  bundle: true,
  format: "esm",
  outdir: assets,
  entryNames: "[name]-[hash]",
  minify: true,
  target,
  nodePaths: [join(PUSHER_SOURCE, "runtimes/worker"), join(PUSHER_SOURCE, "runtimes"), PUSHER_SOURCE],
  define: {
    global: "self",
    RUNTIME: JSON.stringify("worker"),
    VERSION: JSON.stringify(PUSHER_VERSION),
    CDN_HTTP: JSON.stringify("http://js.pusher.com"),
    CDN_HTTPS: JSON.stringify("https://js.pusher.com"),
    DEPENDENCY_SUFFIX: JSON.stringify(".min"),
  },
  plugins: [pusherFromSource],
  metafile: true,
  legalComments: "none",
  logLevel: "warning",
});
const realtimeFile = Object.keys(realtime.metafile.outputs).find((output) => output.endsWith(".js"));
if (!realtimeFile) throw new Error("esbuild produced no realtime module");

/** The bundle's `import("./realtime-connection.js")` loads the hashed module built above, next to it in assets/. */
const realtimeModule = {
  name: "realtime-module",
  setup(builder) {
    builder.onResolve({ filter: /\/realtime-connection\.js$/ }, () => ({ path: `./${basename(realtimeFile)}`, external: true }));
  },
};
const bundle = await build({
  entryPoints: { app: join(here, "src/app/mount.tsx") },
  bundle: true,
  format: "esm",
  outdir: assets,
  entryNames: "[name]-[hash]",
  minify: true,
  target,
  jsx: "automatic",
  jsxImportSource: "preact",
  // Written as UTF-8, not as \uXXXX escapes: the Arabic and Hebrew words take a third of the bytes
  // (a module script is always decoded as UTF-8, whatever the response's charset says).
  charset: "utf8",
  plugins: [realtimeModule],
  metafile: true,
  legalComments: "none",
  logLevel: "warning",
});
const entry = Object.entries(bundle.metafile.outputs).find(([, output]) => output.entryPoint?.endsWith("src/app/mount.tsx"));
if (!entry) throw new Error("esbuild produced no bundle entry");

await build({
  entryPoints: [join(here, "src/loader/widget-loader.ts")],
  bundle: true,
  format: "iife",
  outfile: join(dist, "widget.js"),
  minify: true,
  target,
  define: { __FRONTDESK_BUNDLE__: JSON.stringify(basename(entry[0])) },
  legalComments: "none",
  logLevel: "warning",
});

const sizeOf = (path) => {
  const bytes = readFileSync(path);
  return { bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const manifest = {
  loader: { file: "widget.js", ...sizeOf(join(dist, "widget.js")) },
  entry: basename(entry[0]),
  assets: readdirSync(assets).map((file) => ({ file, ...sizeOf(join(assets, file)) })),
};
writeFileSync(join(dist, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const total = manifest.loader.gzip + manifest.assets.reduce((sum, asset) => sum + asset.gzip, 0);
console.log(`widget: widget.js ${kb(manifest.loader.gzip)} gzipped, ${manifest.assets.length} asset(s), ${kb(total)} gzipped in all`);

// The budgets (issue 11) fail the build itself, not only the suite's size-budget test.
const LOADER_BUDGET = 5 * 1024;
const TOTAL_BUDGET = 45 * 1024;
if (manifest.loader.gzip > LOADER_BUDGET || total > TOTAL_BUDGET) {
  console.error(`widget: over budget (widget.js at most ${kb(LOADER_BUDGET)}, all at most ${kb(TOTAL_BUDGET)} gzipped)`);
  process.exit(1);
}
