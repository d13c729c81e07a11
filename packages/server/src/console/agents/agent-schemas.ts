import {
  agentSnippetResponseSchema,
  consoleAgentListResponseSchema,
  consoleAgentResponseSchema,
  consoleAgentSchema,
  consoleIdSchema,
  createConsoleAgentBodySchema,
  identitySecretResponseSchema,
  updateConsoleAgentBodySchema,
} from "@frontdesk/contracts";
import { z } from "zod";
import { componentSchemas } from "../../openapi/component-schemas.js";
import { errorResponse, jsonResponse } from "../../openapi/route-responses.js";
import { consoleAdminSecurity, consoleReadErrors, consoleSecurity, consoleWriteErrors } from "../console-responses.js";

componentSchemas.add(consoleAgentSchema, { id: "ConsoleAgent", description: "An agent with every setting, as the console reads and edits it." });
componentSchemas.add(createConsoleAgentBodySchema, { id: "CreateConsoleAgentRequest" });
componentSchemas.add(updateConsoleAgentBodySchema, {
  id: "UpdateConsoleAgentRequest",
  description: "The settings to change: an absent member is left as it is; null puts an optional setting back to its default.",
});

const tags = ["console"];
export const agentIdParamsSchema = z.object({ id: consoleIdSchema });
const agentNotFound = errorResponse("`agent_not_found`: no agent with this id in the operator's workspace (another workspace's agent included).");
const badId = errorResponse("`validation_failed`: the id cannot be an agent id (`fields.id` says why).");
const adminOnly = errorResponse(
  "`forbidden`: only an admin may change agents (the operator is an `agent`); `csrf_origin_mismatch`: the request must carry `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
);

export const listAgentsRouteSchema = {
  tags,
  operationId: "listConsoleAgents",
  summary: "List the workspace's agents",
  description: "Every agent of the signed-in operator's workspace, oldest first, with all its settings. Any operator may read them.",
  security: consoleSecurity,
  response: { 200: jsonResponse("The agents.", consoleAgentListResponseSchema), ...consoleReadErrors },
};

export const getAgentRouteSchema = {
  tags,
  operationId: "getConsoleAgent",
  summary: "Read one agent",
  description: "One agent of the operator's workspace with every setting and the branding line its widget shows.",
  security: consoleSecurity,
  params: agentIdParamsSchema,
  response: { 200: jsonResponse("The agent.", consoleAgentResponseSchema), ...consoleReadErrors, 404: agentNotFound, 422: badId },
};

export const createAgentRouteSchema = {
  tags,
  operationId: "createConsoleAgent",
  summary: "Create an agent",
  description:
    "Admins only. `site_url` (any page of the site) gives the first allowed origin, `origins` more; the optional settings default " +
    "as `admin agent create` gives them (persona name: the agent's name; tone `friendly`; colour `#2563eb`; language `en`). Published unless `draft`.",
  security: consoleAdminSecurity,
  body: createConsoleAgentBodySchema,
  response: {
    201: jsonResponse("The new agent.", consoleAgentResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
    422: errorResponse("`validation_failed`: `fields` names each bad member (`origins` lists the entries that are not origins)."),
  },
};

export const updateAgentRouteSchema = {
  tags,
  operationId: "updateConsoleAgent",
  summary: "Change an agent's settings",
  description:
    "Admins only. Changes the given settings in one transaction (`admin agent update`'s use case): name, allowed origins (the whole list), " +
    "vertical, persona name and tone, primary colour, starter prompts, language, proactive behavior rules (a coupon only on an `ecommerce` agent), " +
    "branding overrides, and office hours (an IANA time zone and open intervals per weekday), the away message and the usual reply time, " +
    "and the identity mode of verified visitors (`optional` and `required` need an identity secret first). " +
    "Widget sessions see the change on their next request.",
  security: consoleAdminSecurity,
  params: agentIdParamsSchema,
  body: updateConsoleAgentBodySchema,
  response: {
    200: jsonResponse("The agent as changed.", consoleAgentResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
    404: agentNotFound,
    422: errorResponse(
      "`validation_failed`: `fields` names each bad member (e.g. `behavior_rules.0.action.coupon` on a `general` agent, `office_hours.time_zone` " +
        "for an unknown zone, `office_hours.days.mon.1.open` for an interval overlapping another).",
    ),
  },
};

const publication = (published: boolean) => ({
  tags,
  operationId: published ? "publishConsoleAgent" : "unpublishConsoleAgent",
  summary: published ? "Publish an agent" : "Unpublish an agent",
  description: published
    ? "Admins only. The widget may start sessions with the agent again. Publishing a published agent changes nothing."
    : "Admins only. The agent becomes a draft: init answers `agent_not_found`, and live sessions stop on their next request.",
  security: consoleAdminSecurity,
  params: agentIdParamsSchema,
  response: {
    200: jsonResponse("The agent.", consoleAgentResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
    404: agentNotFound,
    422: badId,
  },
});
export const publishAgentRouteSchema = publication(true);
export const unpublishAgentRouteSchema = publication(false);

export const agentSnippetRouteSchema = {
  tags,
  operationId: "getConsoleAgentSnippet",
  summary: "The agent's install snippet",
  description:
    "The script tag to paste into the site's pages (`<script src=\"{public URL}/widget.js\" data-agent-id=\"agt_…\" async></script>`), " +
    "with the origins it works on and a demo page to try it. Any operator may read it.",
  security: consoleSecurity,
  params: agentIdParamsSchema,
  response: { 200: jsonResponse("The snippet.", agentSnippetResponseSchema), ...consoleReadErrors, 404: agentNotFound, 422: badId },
};

export const rotateIdentitySecretRouteSchema = {
  tags,
  operationId: "rotateConsoleAgentIdentitySecret",
  summary: "Create or rotate the agent's identity secret",
  description:
    "Admins only. A new identity secret for verified visitors: the site's back end signs its user's id with it " +
    "(`user_hash` = lowercase hex HMAC-SHA256(secret, user_id)). Returned this once: it is stored sealed and never shown again. " +
    "Rotating revokes every hash made with the previous secret: signed-in users' next init with an old hash is 401 `identity_invalid`. " +
    "Same as `frontdesk admin agent identity-secret AGENT_ID`.",
  security: consoleAdminSecurity,
  params: agentIdParamsSchema,
  response: {
    200: jsonResponse("The new secret, shown once.", identitySecretResponseSchema),
    ...consoleWriteErrors,
    403: adminOnly,
    404: agentNotFound,
    422: badId,
  },
};
