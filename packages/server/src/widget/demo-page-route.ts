import { createHash } from "node:crypto";
import { agentIdSchema } from "@frontdesk/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../http/app-error.js";
import { findAgent } from "../tenants/agents.js";

// The widget opens on load, a 380 px panel 20 px from the right edge (it fills the screen below 641 px):
// beside it, the page keeps its text in the room left of the panel.
const DEMO_CSS =
  "body{margin:0;font:16px/1.6 system-ui,sans-serif;color:#1f2937;background:#f3f4f6}main{max-width:40rem;margin:0 auto;padding:3rem 1.5rem}h1{font-size:1.6rem;margin:0 0 .5rem}code{background:#e5e7eb;padding:.1rem .3rem;border-radius:4px;font-size:.9em;overflow-wrap:anywhere}@media (min-width:641px){body{padding-right:420px}}";
const DEMO_CSS_HASH = createHash("sha256").update(DEMO_CSS).digest("base64");

/**
 * The page's own policy is as strict as the widget allows: its scripts, styles and requests come from this service only;
 * only this service's own pages (the console's preview) may frame it.
 */
const DEMO_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  `style-src 'sha256-${DEMO_CSS_HASH}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join("; ");

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? character);

function demoPage(agent: { id: string; name: string }): string {
  const name = escapeHtml(agent.name);
  const id = escapeHtml(agent.id);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name} · Frontdesk demo</title><meta name="robots" content="noindex"><link rel="icon" href="/widget/logo.svg"><style>${DEMO_CSS}</style></head>
<body><main><h1>${name}</h1>
<p>This page embeds the Frontdesk widget for agent <code>${id}</code>, as a website would:</p>
<p><code>&lt;script src="/widget.js" data-agent-id="${id}" async&gt;&lt;/script&gt;</code></p>
<p>Ask it something in the chat at the bottom right. The service's own origin may start sessions for this page; <code>FRONTDESK_DEMO=false</code> switches the page and that permission off.</p>
</main><script src="/widget.js" data-agent-id="${id}" data-open="true" async></script></body></html>`;
}

/** GET /demo/{agent_id}: a page that embeds the widget of a published agent (FRONTDESK_DEMO, on by default). */
export const demoPageRoute: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.services;
  app.get("/demo/:agent_id", { schema: { hide: true, params: z.object({ agent_id: agentIdSchema }) } }, async (request, reply) => {
    const agent = await findAgent(db, request.params.agent_id);
    if (!agent || !agent.published) throw new AppError("agent_not_found", "No published agent has this id.");
    return reply
      .type("text/html; charset=utf-8")
      .header("Content-Security-Policy", DEMO_CSP)
      .header("Cache-Control", "no-store")
      .header("X-Content-Type-Options", "nosniff")
      .header("Referrer-Policy", "no-referrer")
      .send(demoPage(agent));
  });
};
