import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { enforceRateLimit } from "../ratelimit/enforce-rate-limit.js";
import { applyCoupon } from "./apply-coupon.js";
import { ipGuard, sessionGuard, sessionOf, sessionOnly } from "./route-guards.js";
import { captureLead } from "./capture-lead.js";
import { rateSatisfaction } from "./rate-satisfaction.js";
import { recordEvent } from "./record-event.js";
import { requestHuman } from "../conversations/request-human.js";
import { signalTyping } from "./signal-typing.js";
import {
  couponRouteSchema,
  eventsRouteSchema,
  initRouteSchema,
  rulesRouteSchema,
  leadsRouteSchema,
  requestHumanRouteSchema,
  satisfactionRouteSchema,
  typingRouteSchema,
} from "./schemas.js";
import { demoPageOrigins } from "./demo-page-origins.js";
import { readBehaviorRules } from "./read-behavior-rules.js";
import { startSession, storableUserAgent } from "./start-session.js";

/** The visitor-facing widget API (spec section 4), mounted under /api/v1/widget. */
export const widgetRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;

  app.post("/init", {
    schema: initRouteSchema,
    preValidation: async (request, reply) => {
      const body = request.body as { agent_id?: unknown } | undefined;
      const agentId = typeof body?.agent_id === "string" ? body.agent_id.slice(0, 64) : "";
      await enforceRateLimit(services.limiter, reply, ["initPerIp", request.ip], ["initPerIpAndAgent", `${request.ip}|${agentId}`]);
    },
    handler: async (request) => ({
      data: await startSession(services, {
        body: request.body,
        origin: request.headers.origin,
        userAgent: storableUserAgent(request.headers["user-agent"]),
        acceptLanguage: request.headers["accept-language"],
        serviceOrigins: demoPageOrigins(services.config, request),
      }),
    }),
  });

  app.post("/rules", {
    schema: rulesRouteSchema,
    preValidation: async (request, reply) => {
      const body = request.body as { agent_id?: unknown } | undefined;
      const agentId = typeof body?.agent_id === "string" ? body.agent_id.slice(0, 64) : "";
      await enforceRateLimit(services.limiter, reply, ["rulesPerIpAndAgent", `${request.ip}|${agentId}`]);
    },
    handler: async (request) => ({
      data: {
        behavior_rules: await readBehaviorRules(services, {
          agentId: request.body.agent_id,
          origin: request.headers.origin,
          serviceOrigins: demoPageOrigins(services.config, request),
        }),
      },
    }),
  });

  app.post("/leads", {
    schema: leadsRouteSchema,
    preValidation: sessionGuard(services, "leads"),
    handler: async (request, reply) => {
      const { lead, created } = await captureLead(services, sessionOf(request), request.body);
      return reply.code(created ? 201 : 200).send({ data: lead });
    },
  });

  app.post("/events", {
    schema: eventsRouteSchema,
    preValidation: sessionGuard(services, "session"),
    handler: async (request, reply) => reply.code(202).send({ data: await recordEvent(services, sessionOf(request), request.body) }),
  });

  app.post("/request-human", {
    schema: requestHumanRouteSchema,
    preValidation: sessionGuard(services, "session"),
    handler: async (request) => ({ data: await requestHuman(services, sessionOf(request), request.body.reason ?? null) }),
  });

  app.post("/typing", {
    schema: typingRouteSchema,
    preValidation: ipGuard(services, "typing"),
    handler: async (request, reply) => {
      await signalTyping(services, request.headers.authorization, request.body.typing ?? true);
      return reply.code(204).send(null);
    },
  });

  app.post("/satisfaction", {
    schema: satisfactionRouteSchema,
    preValidation: [ipGuard(services, "satisfaction"), sessionOnly(services)],
    handler: async (request) => ({
      data: await rateSatisfaction(services, sessionOf(request), { rating: request.body.rating, comment: request.body.comment ?? null }),
    }),
  });

  app.post("/coupon/apply", {
    schema: couponRouteSchema,
    preValidation: [ipGuard(services, "coupon"), sessionOnly(services)],
    handler: async (request) => ({ data: await applyCoupon(services, sessionOf(request), request.body.code) }),
  });
};
