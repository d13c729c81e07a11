import swagger from "@fastify/swagger";
import type { FastifyInstance } from "fastify";
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from "fastify-type-provider-zod";
import type { Config } from "../config/config.js";
import { componentSchemas } from "./component-schemas.js";
import "./field-descriptions.js";
import { markOptionalRequestBodies } from "./optional-request-bodies.js";
import { describeRateLimitHeaders } from "./rate-limit-headers.js";
import { tidyComponentSchemas } from "./tidy-component-schemas.js";

const API_DESCRIPTION = [
  "Frontdesk hosts AI agents for websites. The **widget API** is what the script tag on a site calls: `initSession` " +
    "returns a session token (`sessionToken`, a 60-minute HS256 JWT) that every other widget route takes as " +
    "`Authorization: Bearer <jwt>`. The **Sources API** feeds an agent's knowledge; it takes a workspace API token " +
    "(`apiToken`, `fdk_…`, made with `bin/frontdesk admin token create`). The **console API** (`/api/v1/console`) is what " +
    "operators' browsers call, signed in with a session cookie (`consoleSession`, from `createConsoleSession`).",
  "",
  "Every error is `{\"error\":{\"code\",\"message\"}}` (the `Error` schema); 422 `validation_failed` adds `fields`. " +
    "Rate-limited routes answer with `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`; a 429 adds `Retry-After`.",
].join("\n");

/**
 * The OpenAPI 3.1 document served at /openapi.json, generated from the route schemas: named
 * components from `componentSchemas`, and `servers` from FRONTDESK_PUBLIC_URL.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  const toComponents = createJsonSchemaTransformObject({ schemaRegistry: componentSchemas });
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: "Frontdesk API", version: "1.0.0", description: API_DESCRIPTION },
      servers: [{ url: config.publicUrl, description: "This service (FRONTDESK_PUBLIC_URL)" }],
      tags: [
        { name: "widget", description: "Called by the widget in visitors' browsers (CORS: any origin; init checks the agent's allowed origins)." },
        { name: "sources", description: "The Sources ingest API: a workspace's servers push the pages and texts its agents answer from." },
        { name: "wordpress", description: "WordPress bulk sync: a plugin pushes a site's posts and their changes (an API token with `wp:sync`)." },
        { name: "labels", description: "Labelling conversations from automations, e.g. a receiver of the webhooks (an API token with `conversations:label`)." },
        { name: "inbound-mail", description: "Mail providers post visitors' replies by e-mail here (Mailgun signed, Postmark with basic auth); see docs/api.md, E-mail." },
        { name: "files", description: "The files uploaded as sources, served to visitors who follow a citation (public, by an unguessable id, sandboxed)." },
        { name: "console", description: "Called by the console in operators' browsers, signed in with a session cookie (CORS: FRONTDESK_PUBLIC_URL's origin only)." },
      ],
      components: {
        securitySchemes: {
          sessionToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The `jwt` that `initSession` returns (60 minutes)." },
          apiToken: { type: "http", scheme: "bearer", description: "A workspace API token (`fdk_…`), with the ability the route needs (`sources:*`, `wp:sync`, `conversations:label`)." },
          consoleSession: {
            type: "apiKey",
            in: "cookie",
            name: "frontdesk_console_session",
            description:
              "The console's session cookie, set by `createConsoleSession` (HttpOnly, SameSite=Lax, Secure under https). " +
              "A request that changes something must also carry `Origin` equal to FRONTDESK_PUBLIC_URL's origin.",
          },
        },
      },
    },
    transform: createJsonSchemaTransform({ schemaRegistry: componentSchemas }),
    transformObject: (document) => describeRateLimitHeaders(markOptionalRequestBodies(tidyComponentSchemas(toComponents(document)))),
  });
}
