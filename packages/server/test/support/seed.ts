import type { FastifyInstance } from "fastify";
import { runAdminCommand, type AdminContext } from "../../src/admin/run-admin-command.js";
import type { Services } from "../../src/services.js";

export const SITE_ORIGIN = "https://shop.example.com";

export interface Tenant {
  workspaceId: string;
  agentId: string;
}

/** A workspace with one published agent, through the same commands the admin CLI runs. */
/** The admin command context of a test app's services. */
export const adminOf = (services: Services): AdminContext => ({
  db: services.db,
  jobs: async () => services.jobs,
  onAgentChanged: (agentId) => services.sessionCache.forgetAgent(agentId),
  publicUrl: services.config.publicUrl,
  now: services.now,
  embedders: async () => services.embedders,
});

export async function seedTenant(
  services: Services,
  options: { quota?: number | null; vertical?: "general" | "ecommerce"; origins?: string[]; draft?: boolean } = {},
): Promise<Tenant> {
  const admin = adminOf(services);
  const workspace = (await runAdminCommand(admin, {
    command: "workspace.create",
    name: "Acme",
    conversationQuota: options.quota ?? null,
  })) as { id: string };
  const agent = (await runAdminCommand(admin, {
    command: "agent.create",
    workspaceId: workspace.id,
    name: "Acme Assistant",
    origins: options.origins ?? [SITE_ORIGIN],
    vertical: options.vertical ?? "general",
    draft: options.draft ?? false,
    personaName: "Ada",
    tone: "warm and concise",
    primaryColor: "#112233",
    starterPrompts: ["Where is my order?", "Do you ship abroad?"],
    language: "en",
  })) as { id: string };
  return { workspaceId: workspace.id, agentId: agent.id };
}

export interface StartedSession {
  jwt: string;
  conversationId: string;
  visitorId: string;
  anonymousId: string;
}

/** Calls POST /init from the allowed origin and returns the session. */
export async function startSession(
  app: FastifyInstance,
  agentId: string,
  body: Record<string, unknown> = {},
  origin = SITE_ORIGIN,
): Promise<StartedSession> {
  const response = await app.inject({
    method: "POST",
    url: "/api/v1/widget/init",
    headers: { origin },
    payload: { agent_id: agentId, page_url: `${SITE_ORIGIN}/products/1`, ...body },
  });
  if (response.statusCode !== 200) throw new Error(`init failed: ${response.statusCode} ${response.body}`);
  const data = response.json().data;
  return { jwt: data.jwt, conversationId: data.conversation_id, visitorId: data.visitor_id, anonymousId: data.anonymous_id };
}

export const bearer = (jwt: string) => ({ authorization: `Bearer ${jwt}` });
