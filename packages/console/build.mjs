#!/usr/bin/env node
// Builds the console into dist/: the app (assets/app-[hash].js, its stylesheet and any chunks, ES
// modules with content-hashed names, served immutable under /console/assets/) and index.html, which
// names them and is served with no-cache (the service adds the realtime settings and the CSP).
// dist/manifest.json lists the files with their gzipped sizes.
import { build } from "esbuild";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const assets = join(dist, "assets");
// Browsers of the last few years, as for the widget.
const target = ["es2020", "chrome93", "firefox101", "safari16.4", "edge93"];

rmSync(dist, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const bundle = await build({
  entryPoints: { app: join(here, "src/main.tsx") },
  bundle: true,
  format: "esm",
  splitting: true,
  outdir: assets,
  entryNames: "[name]-[hash]",
  chunkNames: "chunk-[hash]",
  assetNames: "[name]-[hash]",
  minify: true,
  target,
  jsx: "automatic",
  define: { "process.env.NODE_ENV": '"production"' },
  metafile: true,
  legalComments: "none",
  logLevel: "warning",
});
// The service worker of the console's Web Push alerts: one classic script at a fixed address
// (/console/push-worker.js, scope /console/), since a worker's URL must stay the same across releases.
await build({
  entryPoints: [join(here, "src/push/push-worker.ts")],
  bundle: true,
  format: "iife",
  outfile: join(dist, "push-worker.js"),
  minify: true,
  target,
  legalComments: "none",
  logLevel: "warning",
});
const entry = Object.entries(bundle.metafile.outputs).find(([, output]) => output.entryPoint?.endsWith("src/main.tsx"));
if (!entry) throw new Error("esbuild produced no console entry");
const script = basename(entry[0]);
const stylesheet = entry[1].cssBundle ? basename(entry[1].cssBundle) : null;

// No inline script or style: the service's Content-Security-Policy allows only files of its own origin.
// <!--frontdesk-realtime--> is where the service writes <meta name="frontdesk-realtime">.
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="same-origin">
<title>Frontdesk console</title>
<link rel="icon" href="data:,">
${stylesheet ? `<link rel="stylesheet" href="/console/assets/${stylesheet}">\n` : ""}<script type="module" src="/console/assets/${script}"></script>
<!--frontdesk-realtime-->
</head>
<body>
<div id="root"></div>
<noscript>The Frontdesk console needs JavaScript.</noscript>
</body>
</html>
`;
writeFileSync(join(dist, "index.html"), html);

const sizeOf = (path) => {
  const bytes = readFileSync(path);
  return { bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const manifest = {
  entry: script,
  stylesheet,
  assets: readdirSync(assets).map((file) => ({ file, ...sizeOf(join(assets, file)) })),
};
writeFileSync(join(dist, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const total = manifest.assets.reduce((sum, asset) => sum + asset.gzip, 0);
console.log(`console: ${manifest.assets.length} asset(s), ${kb(total)} gzipped in all`);
