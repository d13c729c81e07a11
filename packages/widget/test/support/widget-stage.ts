import { mkdirSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { fileURLToPath } from "node:url";
import { freePort } from "../../../server/test/cli/cli-process.js";
import {
  startLoopbackChatServer,
  type LoopbackChatServer,
  type RecordedChatRequest,
  type ResponseStep,
  type ScriptedResponse,
} from "../../../server/test/answering/generate/loopback-chat-server.js";
import { OPENAI_DONE, openAiChunkEvents } from "../../../server/test/answering/generate/fixtures/openai-chat-stream.js";
import { bikeShopKnowledge, pushKnowledge } from "../../../server/test/support/knowledge.js";
import { LoopbackSite } from "../../../server/test/support/loopback-site.js";
import { seedTenant, type Tenant } from "../../../server/test/support/seed.js";
import { createTestApp, type TestApp } from "../../../server/test/support/test-app.js";

/** Screenshots of the main states (gitignored), for a person to look at. */
export const ARTIFACTS = fileURLToPath(new URL("../../test-artifacts/", import.meta.url));
mkdirSync(ARTIFACTS, { recursive: true });

export interface HostPageOptions {
  /** data-* attributes of the script tag, without the `data-` prefix. */
  attributes?: Record<string, string>;
  /** A Content-Security-Policy header for the page. */
  csp?: string;
  /** Stylesheets the page links (paths on the host site). */
  stylesheets?: string[];
  /** More of the page's body, before the script tag. */
  body?: string;
  /** Put the script tag in <head> (it may then run before <body> exists). */
  inHead?: boolean;
  /** An inline script before the script tag (e.g. calls queued before widget.js runs). */
  before?: string;
}

/**
 * A listening service (its model a scripted OpenAI-compatible server on loopback, its knowledge
 * the bike shop's) and a host website on another origin whose pages embed the script tag.
 */
export interface WidgetStage {
  t: TestApp;
  tenant: Tenant;
  serviceUrl: string;
  site: LoopbackSite;
  model: LoopbackChatServer;
  /** Serves a page at `path` on the host site and returns its URL. */
  hostPage(path: string, options?: HostPageOptions): string;
  close(): Promise<void>;
}

const MODEL_SSE_HEADERS = { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };

/** An OpenAI-style streamed answer; a delta given with a gate is written only once the gate resolves. */
export function modelAnswer(deltas: readonly (string | { delta: string; after: Promise<unknown> })[]): ScriptedResponse {
  const steps: ResponseStep[] = [];
  const [opening, ...chunks] = openAiChunkEvents(deltas.map((delta) => (typeof delta === "string" ? delta : delta.delta)));
  steps.push({ write: opening! });
  deltas.forEach((delta, index) => {
    if (typeof delta !== "string") steps.push({ until: delta.after });
    steps.push({ write: chunks[index]! });
  });
  for (const rest of chunks.slice(deltas.length)) steps.push({ write: rest });
  steps.push({ write: OPENAI_DONE });
  return { status: 200, headers: MODEL_SSE_HEADERS, steps };
}

/** The passages of the prompt a model request carried: number → URL. */
export function promptPassages(request: RecordedChatRequest): Map<number, string> {
  const messages = request.body.messages as { role: string; content: string }[];
  const system = messages.find((message) => message.role === "system")?.content ?? "";
  const passages = new Map<number, string>();
  for (const match of system.matchAll(/^\[(\d+)\] .*\n\((https?:\/\/[^)\s]+)\)$/gm)) passages.set(Number(match[1]), match[2]!);
  return passages;
}

export const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** `environment`: more FRONTDESK_* settings of the service (a test's own, e.g. webhooks reaching a loopback receiver). */
export async function startWidgetStage(environment: Record<string, string> = {}): Promise<WidgetStage> {
  const model = await startLoopbackChatServer();
  const site = new LoopbackSite();
  await site.start();
  const port = await freePort();
  const serviceUrl = `http://127.0.0.1:${port}`;
  const t = await createTestApp(
    "pglite",
    {
      FRONTDESK_PUBLIC_URL: serviceUrl,
      FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000",
      FRONTDESK_LLM_PROVIDER: "openai",
      FRONTDESK_LLM_BASE_URL: model.origin,
      FRONTDESK_LLM_MODEL: "gpt-4o-mini",
      FRONTDESK_LLM_API_KEY: "test-key",
      FRONTDESK_LLM_TIMEOUT_S: "60",
      ...environment,
    },
    { workers: { allowPrivateNetworks: true } },
  );
  const tenant = await seedTenant(t.services, { origins: [site.origin] });
  await pushKnowledge(t, tenant.workspaceId, tenant.agentId, bikeShopKnowledge);
  await t.app.listen({ host: "127.0.0.1", port });

  const hostPage = (path: string, options: HostPageOptions = {}) => {
    const attributes = { "agent-id": tenant.agentId, ...options.attributes };
    const data = Object.entries(attributes)
      .map(([name, value]) => ` data-${name}="${escapeAttribute(value)}"`)
      .join("");
    const tag = `${options.before ? `<script>${options.before}</script>` : ""}<script src="${serviceUrl}/widget.js"${data}${options.inHead ? "" : " async"}></script>`;
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme Bikes</title>
${(options.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${href}">`).join("\n")}${options.inHead ? tag : ""}</head>
<body><header><div class="brand">Acme Bikes</div></header><main><div class="content"><h1>Spring sale</h1><p id="copy">Every e-bike is 20% off until Sunday.</p></div></main>
${options.body ?? ""}
${options.inHead ? "" : tag}</body></html>`;
    site.routes.set(path, (_request: IncomingMessage, response: ServerResponse) => {
      const headers: Record<string, string> = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };
      if (options.csp) headers["content-security-policy"] = options.csp;
      response.writeHead(200, headers);
      response.end(html);
    });
    return site.url(path);
  };

  return {
    t,
    tenant,
    serviceUrl,
    site,
    model,
    hostPage,
    async close() {
      await t.close();
      await site.stop();
      await model.close();
    },
  };
}
