import type { z } from "zod";
import type { agentSnippetResponseSchema } from "@frontdesk/contracts";
import type { Config } from "../../config/config.js";
import type { Agent } from "../../tenants/agent.js";

type AgentSnippet = z.infer<typeof agentSnippetResponseSchema>["data"];

/** What a site pastes into its pages to show the agent's widget ("Embed the widget" in the README and docs/widget.md). */
export function agentSnippet(agent: Agent, config: Config): AgentSnippet {
  const scriptUrl = `${config.publicUrl}/widget.js`;
  return {
    agent_id: agent.id,
    html: `<script src="${scriptUrl}" data-agent-id="${agent.id}" async></script>`,
    script_url: scriptUrl,
    demo_url: config.demo ? `${config.publicUrl}/demo/${agent.id}` : null,
    published: agent.published,
    allowed_origins: agent.allowedOrigins,
  };
}
