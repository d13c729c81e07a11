import cookie from "@fastify/cookie";
import type { FastifyPluginAsync } from "fastify";
import { conversationActionRoutes } from "../conversations/console-routes.js";
import { conversationReadRoutes } from "./conversation-read-routes.js";
import { notificationRoutes } from "./notification-routes.js";
import { sessionRoutes } from "./session-routes.js";
import { setupRoutes } from "./setup/setup-routes.js";
import { agentRoutes } from "./agents/agent-routes.js";
import { knowledgeRoutes } from "./knowledge/knowledge-routes.js";
import { operatorBroadcastingAuthRoute } from "./broadcasting-auth-route.js";
import { leadRoutes } from "./leads/routes.js";
import { tokenRoutes } from "./tokens/routes.js";
import { operatorRoutes } from "./operators/routes.js";
import { usageRoutes } from "./usage/routes.js";
import { analyticsRoutes } from "./analytics/routes.js";
import { curatedAnswerRoutes } from "./curated/routes.js";
import { visitorPrivacyRoutes } from "../privacy/console-routes.js";
import { webhookRoutes } from "../webhooks/console-routes.js";
import { roleGuard } from "./role-guard.js";

/**
 * The console API, mounted at /api/v1/console: reads the session cookie for every route below
 * it (see authenticate-operator.ts for the guard, CSRF included), and refuses an admin route
 * (its schema's `security: consoleAdminSecurity`) to an agent before anything else (role-guard.ts).
 * Each area adds its route plugin here, one line each.
 */
export const registerConsole: FastifyPluginAsync = async (app) => {
  await app.register(cookie);
  // Before every route's own guards and validation: the role a route's schema requires.
  app.addHook("preValidation", roleGuard(app.services));
  await app.register(sessionRoutes);
  await app.register(setupRoutes);
  await app.register(agentRoutes);
  await app.register(knowledgeRoutes);
  await app.register(operatorBroadcastingAuthRoute);
  await app.register(conversationActionRoutes);
  await app.register(conversationReadRoutes);
  await app.register(notificationRoutes);
  await app.register(leadRoutes);
  await app.register(tokenRoutes);
  await app.register(operatorRoutes);
  await app.register(usageRoutes);
  await app.register(analyticsRoutes);
  await app.register(curatedAnswerRoutes);
  await app.register(visitorPrivacyRoutes);
  await app.register(webhookRoutes);
};
