import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { crossFolderImports, folderOf, importCycles, readImportGraph } from "./import-graph.js";

const sourceOf = (workspace: string) => fileURLToPath(new URL(`../../../${workspace}/src`, import.meta.url));

/**
 * The shared kernel: folders named for what they are, which any domain may use and which import no
 * domain. Everything else under src/ is a domain (one owner per table), or a composition root.
 */
const KERNEL = new Set([
  "auth", // the visitor's session token; API token secrets
  "config",
  "db",
  "embeddings",
  "event-loop",
  "events",
  "files",
  "http",
  "jobs",
  "language",
  "network", // the SSRF guard and guarded agent
  "observability",
  "openapi",
  "paging",
  "ratelimit",
  "realtime", // the Pusher-protocol server; only bus-channels.ts names conversations
  "startup", // libraries loaded on first use
  "threads",
]);

/** Composition roots: they build the app and the CLI from every domain, and no domain imports them (services.ts is a type). */
const ROOTS = new Set(["app.ts", "main.ts", "runtime.ts", "realtime-app.ts", "services.ts", "subscribe-domain-events.ts", "cli"]);

const isRepository = (file: string) => /-repository\.ts$/.test(file);

describe("the server's imports", () => {
  const graph = readImportGraph(sourceOf("server"));
  const cross = crossFolderImports(graph);

  it("happy: the rules read a real tree", () => {
    expect(graph.files.length).toBeGreaterThan(300);
    expect(cross.length).toBeGreaterThan(100);
  });

  it("security: no import cycle between files", () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it("security: no domain, console screen or CLI command imports another domain's repository (they call the owner's door)", () => {
    const found = cross.filter(({ to }) => isRepository(to) && !KERNEL.has(folderOf(to))).map(({ from, to }) => `${from} → ${to}`);
    expect(found).toEqual([]);
  });

  it("security: the kernel imports no domain and no composition root", () => {
    const found = cross.filter(({ from, to }) => KERNEL.has(folderOf(from)) && !KERNEL.has(folderOf(to))).map(({ from, to }) => `${from} → ${to}`);
    expect(found).toEqual([]);
  });

  it("security: no domain imports a composition root except the Services type", () => {
    const found = cross
      .filter(({ from, to }) => !ROOTS.has(folderOf(from)) && ROOTS.has(folderOf(to)) && to !== "services.ts")
      .map(({ from, to }) => `${from} → ${to}`);
    expect(found).toEqual([]);
  });
});

describe.each(["widget", "console"])("the %s's imports", (workspace) => {
  it("security: no import cycle between files", () => {
    const graph = readImportGraph(sourceOf(workspace));
    expect(graph.files.length).toBeGreaterThan(20);
    expect(importCycles(graph)).toEqual([]);
  });
});
