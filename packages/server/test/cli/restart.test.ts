import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pageWithBoilerplate } from "../support/loopback-site.js";
import { createTestDatabase, dataDirWithMigratedStore, describeEachStore, type TestDatabase } from "../support/test-database.js";
import { freePort, json, run, startServer, stopServer } from "./cli-process.js";

const PAGES = 24;

/** A site whose pages answer slowly, so that indexing is still under way when the service is killed. */
async function startSlowSite(): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    if (path === "/robots.txt") return void response.writeHead(404).end();
    if (path === "/sitemap.xml") {
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      response.writeHead(200, { "content-type": "application/xml" });
      return void response.end(
        `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: PAGES }, (_, i) => `<url><loc>${origin}/page/${i}</loc></url>`).join("")}</urlset>`,
      );
    }
    setTimeout(() => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(pageWithBoilerplate(`Page ${path}`, [`Fact ${path}: the answer is ${path.length * 7}.`, "More text here.", "And a little more."]));
    }, 250);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describeEachStore("kill mid-indexing and restart on %s", (kind) => {
  let site: { server: Server; origin: string };
  let database: TestDatabase | null = null;
  let env: Record<string, string>;

  beforeAll(async () => {
    site = await startSlowSite();
    env = {
      FRONTDESK_DATA_DIR: await dataDirWithMigratedStore(kind, "frontdesk-restart-"),
      FRONTDESK_LOG_LEVEL: "warn",
      FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
      FRONTDESK_CRAWLER_ALLOW_PRIVATE_NETWORKS: "true",
      FRONTDESK_WORKER_CONCURRENCY: "2",
      FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "100000",
      // Jobs a killed process left active are retried after this (Postgres cannot know the process died).
      FRONTDESK_JOB_TIMEOUT_SECONDS: "4",
      FRONTDESK_JOB_RETRY_DELAY_SECONDS: "1",
    };
    if (kind === "postgres") {
      database = await createTestDatabase("postgres");
      env.FRONTDESK_DATABASE_URL = database.url!;
    }
  });
  afterAll(async () => {
    await database?.drop();
    site.server.closeAllConnections();
    await new Promise((resolve) => site.server.close(resolve));
  });

  it("happy: every pending source still reaches indexed after SIGKILL and a restart", async () => {
    const workspace = json(await run(env, "admin", "workspace", "create", "--name", "Restart"));
    const agent = json(await run(env, "admin", "agent", "create", "--workspace", workspace.id, "--name", "Bot", "--origin", "https://r.test"));
    const token = json(await run(env, "admin", "token", "create", "--workspace", workspace.id, "--name", "sync")).token as string;

    const port = await freePort();
    const first = await startServer(env, port);
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${port}/api/v1/workspace/sources${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      });
    const push = async (body: Record<string, unknown>) => ((await (await api("", { method: "POST", body: JSON.stringify({ agent_id: agent.id, ...body }) })).json()) as { data: { id: string } }).data.id;
    const sitemap = await push({ kind: "sitemap", url: `${site.origin}/sitemap.xml` });
    const texts = [await push({ kind: "text", content: "Our support line is open from 8am to 8pm." }), await push({ kind: "text", content: "Parcels ship from Rotterdam." })];

    // Kill as soon as indexing is visibly under way.
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const source = ((await (await api(`/${sitemap}`)).json()) as { data: { config: { pages_found: number; pages_indexed: number } } }).data;
      if (source.config.pages_indexed >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await stopServer(first.child, "SIGKILL");

    const second = await startServer(env, port);
    try {
      let states: { status: string; config: Record<string, number> }[] = [];
      for (let attempt = 0; attempt < 600; attempt += 1) {
        states = await Promise.all([sitemap, ...texts].map(async (id) => ((await (await api(`/${id}`)).json()) as { data: { status: string; config: Record<string, number> } }).data));
        if (states.every((state) => state.status !== "pending") && states[0]!.config.pages_indexed === PAGES) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(states.map((state) => state.status)).toEqual(["indexed", "indexed", "indexed"]);
      expect(states[0]!.config).toMatchObject({ pages_found: PAGES, pages_indexed: PAGES, pages_failed: 0 });
    } finally {
      await stopServer(second.child);
    }
  }, 120_000);
});
