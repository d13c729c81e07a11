import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

/**
 * The widget's budgets (issue 11): the loader a page embeds at most 5 KB gzipped, and everything
 * the widget can load (loader, bundle, chunks, the realtime client's included) at most
 * 45 KB gzipped in all. Measured on the files `npm run build` wrote (the suite's pretest builds),
 * gzipped at level 9 as the service serves them.
 */
const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
const SOURCES = fileURLToPath(new URL("../src/", import.meta.url));
const LOADER_BUDGET = 5 * 1024;
const TOTAL_BUDGET = 45 * 1024;

const gzipped = async (path: string) => gzipSync(await readFile(path), { level: 9 }).length;

describe("the widget's size budgets", () => {
  it("happy: widget.js is at most 5 KB gzipped", async () => {
    const size = await gzipped(join(DIST, "widget.js"));
    expect(size).toBeGreaterThan(500);
    expect(size, `widget.js is ${size} bytes gzipped`).toBeLessThanOrEqual(LOADER_BUDGET);
  });

  it("happy: the loader and every asset together are at most 45 KB gzipped", async () => {
    const assets = await readdir(join(DIST, "assets"));
    expect(assets.some((name) => /^app-\w+\.js$/.test(name))).toBe(true);
    const sizes = await Promise.all([join(DIST, "widget.js"), ...assets.map((name) => join(DIST, "assets", name))].map(gzipped));
    const total = sizes.reduce((sum, size) => sum + size, 0);
    expect(total, `the widget is ${total} bytes gzipped in all`).toBeLessThanOrEqual(TOTAL_BUDGET);
  });

  it("security: nothing built evaluates strings as code (a strict CSP without 'unsafe-eval' must do), and our code writes no HTML", async () => {
    const assets = await readdir(join(DIST, "assets"));
    for (const path of [join(DIST, "widget.js"), ...assets.map((name) => join(DIST, "assets", name))]) {
      const code = await readFile(path, "utf8");
      expect(/\beval\(|new Function\(|setTimeout\("|setInterval\("/.test(code), path).toBe(false);
    }
    // Preact can set innerHTML for dangerouslySetInnerHTML, which the widget never passes.
    const sources = await readdir(SOURCES, { recursive: true });
    for (const name of sources.filter((file) => /\.tsx?$/.test(file))) {
      const code = await readFile(join(SOURCES, name), "utf8");
      expect(/dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML|document\.write|setAttribute\("style"/.test(code), name).toBe(false);
    }
  });

  it("happy: the loader defines one global (window.Frontdesk) and knows the bundle's hashed name", async () => {
    const loader = await readFile(join(DIST, "widget.js"), "utf8");
    const manifest = JSON.parse(await readFile(join(DIST, "manifest.json"), "utf8")) as { entry: string };
    expect(loader).toContain(`widget/assets/${manifest.entry}`);
    expect(loader.startsWith('"use strict";(()=>{')).toBe(true);
    expect(loader.match(/window\.Frontdesk=/g)).toHaveLength(1);
  });
});
