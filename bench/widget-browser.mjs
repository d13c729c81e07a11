#!/usr/bin/env node
// The widget in a browser: `npm run bench:widget-browser` (see docs/benchmarks.md).
//
// Starts `frontdesk serve` (PGlite, hashing embeddings, a loopback model server that answers at
// once, so the model costs nothing), teaches its agent one text, and serves a host page on another
// loopback origin that embeds the script tag. Debian's Chromium (driven by playwright-core) then
// measures, over BENCH_RUNS fresh pages each:
//   - launcher: navigation start → the launcher painted (widget.js fetched and run);
//   - open → first token, cold: Frontdesk.open() and send() on a page that has not loaded the
//     bundle yet → the first answer text in the panel (bundle import, init, the question, the stream);
//   - open → first token, warm: the same after a reload, the bundle in the browser's cache.
// Environment: BENCH_RUNS=10, FRONTDESK_TEST_CHROMIUM_PATH (/usr/bin/chromium).
import { createServer } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startModelServer } from "./answers-model-server.mjs";
import { freePort, runAdmin, sleep, sourcesClient, startService } from "./bench-service.mjs";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const runs = Number(process.env.BENCH_RUNS ?? 10);
const executablePath = process.env.FRONTDESK_TEST_CHROMIUM_PATH || "/usr/bin/chromium";

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const summary = (values) => `median ${percentile(values, 50).toFixed(0)} ms, p90 ${percentile(values, 90).toFixed(0)} ms, min ${Math.min(...values).toFixed(0)} ms`;

const model = await startModelServer();
const dataDir = await mkdtemp(join(tmpdir(), "frontdesk-bench-widget-"));
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const site = createServer();
await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve));
const siteOrigin = `http://127.0.0.1:${site.address().port}`;
const env = {
  ...process.env,
  FRONTDESK_DATA_DIR: dataDir,
  FRONTDESK_PUBLIC_URL: baseUrl,
  FRONTDESK_LOG_LEVEL: "warn",
  FRONTDESK_EMBEDDINGS_PROVIDER: "hashing",
  FRONTDESK_LLM_PROVIDER: "openai",
  FRONTDESK_LLM_BASE_URL: model.baseUrl.replace(/\/v1$/, ""),
  FRONTDESK_LLM_MODEL: "bench",
  FRONTDESK_LLM_API_KEY: "x",
  FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: "100000",
  FRONTDESK_RATE_LIMIT_RULES_PER_MINUTE: "100000",
  FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "100000",
};
const service = await startService({ root, env, port });
let browser;
try {
  const workspace = await runAdmin(root, env, ["workspace", "create", "--name", "Bench"]);
  const agent = await runAdmin(root, env, ["agent", "create", "--workspace", workspace.id, "--name", "Bench help", "--origin", siteOrigin]);
  const { token } = await runAdmin(root, env, ["token", "create", "--workspace", workspace.id, "--name", "bench"]);
  const sources = sourcesClient(baseUrl, token);
  const source = await sources.push({
    agent_id: agent.id,
    kind: "text",
    title: "Delivery",
    source_url: `${siteOrigin}/delivery`,
    content: "Standard delivery takes three to five working days. Express delivery arrives the next working day if you order before 2 pm.",
  });
  while ((await sources.get(source.id)).status === "pending") await sleep(200);

  site.on("request", (_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench shop</title></head>
<body><h1>Bench shop</h1><script src="${baseUrl}/widget.js" data-agent-id="${agent.id}" async></script></body></html>`);
  });

  browser = await chromium.launch({ executablePath, headless: true, chromiumSandbox: process.getuid?.() !== 0 });
  /** Frontdesk.open() and send(question) → the first answer text in the panel, timed in the page. */
  const openToFirstToken = (page, question) =>
    page.evaluate(
      (text) =>
        new Promise((resolve, reject) => {
          setTimeout(() => reject(new Error(`no answer to "${text}" within 60 s`)), 60_000);
          const started = performance.now();
          const host = document.querySelector("frontdesk-widget");
          // The answer is the message after the question; it may arrive whole in one render.
          const check = () => {
            const asked = [...host.shadowRoot.querySelectorAll(".msg.from-visitor")].find((message) => message.textContent === text);
            const answer = asked?.nextElementSibling?.querySelector(".bubble");
            if (answer && answer.textContent !== "") {
              observer.disconnect();
              resolve(performance.now() - started);
            }
          };
          const observer = new MutationObserver(check);
          observer.observe(host.shadowRoot, { subtree: true, childList: true, characterData: true });
          window.Frontdesk.open();
          window.Frontdesk.send(text);
        }),
      question,
    );
  const launcherPainted = (page) =>
    page.evaluate(
      () =>
        new Promise((resolve) => {
          const done = () => resolve(performance.now());
          const poll = () => (document.querySelector("frontdesk-widget")?.shadowRoot?.querySelector(".launcher") ? done() : requestAnimationFrame(poll));
          poll();
        }),
    );

  const launcher = [];
  const cold = [];
  const warm = [];
  for (let run = 0; run < runs + 1; run += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on("console", (message) => {
      if (message.type() === "error") console.error(`page: ${message.text()}`);
    });
    page.on("pageerror", (error) => console.error(`page error: ${error.message}`));
    await page.goto(siteOrigin);
    const painted = await launcherPainted(page);
    const first = await openToFirstToken(page, `How long does delivery take? (run ${run}, cold)`);
    await page.reload();
    await launcherPainted(page);
    const second = await openToFirstToken(page, `How long does delivery take? (run ${run}, warm)`);
    await context.close();
    // The first run warms the service (its first answer loads the model client's lazy parts).
    if (run === 0) continue;
    launcher.push(painted);
    cold.push(first);
    warm.push(second);
  }
  console.log(`widget in Chromium ${browser.version()}, ${runs} runs on loopback:`);
  console.log(`  navigation → launcher painted:          ${summary(launcher)}`);
  console.log(`  open() → first token, bundle not loaded: ${summary(cold)}`);
  console.log(`  open() → first token, bundle cached:     ${summary(warm)}`);
} finally {
  await browser?.close();
  await service.stop();
  await model.close();
  site.closeAllConnections();
  site.close();
  await rm(dataDir, { recursive: true, force: true });
}
