import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { registerErrorHandling } from "./http/error-handler.js";
import { registerJsonBodies } from "./http/json-body.js";
import { registerRequestLog } from "./http/request-log.js";
import { serverOptions } from "./http/server-options.js";
import { refuseRequestsWhileClosing } from "./http/refuse-while-closing.js";
import { registerStorableInput } from "./http/storable-input.js";
import { registerWidgetCors } from "./http/widget-cors.js";
import { registerConsoleCors } from "./http/console-cors.js";
import { conversationActionRoutes } from "./conversations/console-routes.js";
import { conversationSnoozeRoutes } from "./conversations/snooze-routes.js";
import { visitorAttachmentRoutes } from "./attachments/widget-routes.js";
import { consoleAttachmentRoutes } from "./attachments/console-routes.js";
import { agentRoutes } from "./console/agents/agent-routes.js";
import { analyticsRoutes } from "./console/analytics/routes.js";
import { answerReviewRoutes } from "./console/review/routes.js";
import { operatorBroadcastingAuthRoute } from "./console/broadcasting-auth-route.js";
import { conversationReadRoutes } from "./console/conversation-read-routes.js";
import { curatedAnswerRoutes } from "./console/curated/routes.js";
import { answerTestRoutes } from "./answer-tests/routes.js";
import { noteRoutes } from "./notes/routes.js";
import { savedReplyRoutes } from "./saved-replies/routes.js";
import { labelRoutes } from "./labels/routes.js";
import { visitorProfileRoutes } from "./console/visitor-profile/routes.js";
import { conversationLabelApiRoutes } from "./conversations/label-api-routes.js";
import { conversationLabelRoutes } from "./conversations/label-routes.js";
import { knowledgeRoutes } from "./console/knowledge/knowledge-routes.js";
import { leadRoutes } from "./console/leads/routes.js";
import { notificationRoutes } from "./console/notification-routes.js";
import { operatorRoutes } from "./console/operators/routes.js";
import { registerConsoleSurface } from "./console/console-surface.js";
import { sessionRoutes } from "./console/session-routes.js";
import { secondStepRoutes } from "./console/two-factor/second-step-routes.js";
import { twoFactorRoutes } from "./console/two-factor/two-factor-routes.js";
import { ssoRoutes } from "./console/sso/sso-routes.js";
import { setupRoutes } from "./console/setup/setup-routes.js";
import { tokenRoutes } from "./console/tokens/routes.js";
import { usageRoutes } from "./console/usage/routes.js";
import { visitorPrivacyRoutes } from "./privacy/console-routes.js";
import { webhookRoutes } from "./webhooks/console-routes.js";
import { embeddingsRoutes } from "./console/embeddings/routes.js";
import { mailRoutes } from "./mail/console-routes.js";
import { mailWidgetRoutes } from "./mail/widget-routes.js";
import { INBOUND_MAIL_PREFIX, inboundMailRoutes } from "./mail/inbound-routes.js";
import { pushRoutes } from "./push/console-routes.js";
import { modelProviderRoutes } from "./console/models/model-provider-routes.js";
import { CONSOLE_PREFIX } from "./console/console-prefix.js";
import { publicOrigin } from "./console/public-origin.js";
import { healthRoutes } from "./observability/health-routes.js";
import { registerHttpMetrics } from "./observability/http-metrics.js";
import { registerJobQueueMetrics } from "./observability/job-queue-metrics.js";
import { registerRateLimiterMetrics } from "./observability/rate-limiter-metrics.js";
import { registerRetrievalMetrics } from "./observability/retrieval-metrics.js";
import { registerOpenApi } from "./openapi/register-openapi.js";
import type { Services } from "./services.js";
import { sourcesRoutes } from "./sources/routes.js";
import { fileRoutes } from "./sources/file-routes.js";
import { FILES_PREFIX } from "./sources/public-file-url.js";
import { wordpressRoutes } from "./wordpress/routes.js";
import { messageRoutes } from "./answering/routes.js";
import { logoRoute } from "./widget/logo-route.js";
import { demoPageRoute } from "./widget/demo-page-route.js";
import { widgetAssetRoutes } from "./widget/widget-asset-routes.js";
import { consoleAppRoutes } from "./console/console-app-routes.js";
import { loadWidgetBuild } from "./widget/widget-build.js";
import { widgetRoutes } from "./widget/routes.js";
import { visitorConversationRoutes } from "./conversations/widget-routes.js";
import { visitorErasureRoutes } from "./privacy/widget-routes.js";
import { registerRealtime } from "./realtime/register-realtime.js";
import { broadcastingAuthRoute } from "./widget/broadcasting-auth-route.js";

declare module "fastify" {
  interface FastifyInstance {
    services: Services;
  }
}

export const WIDGET_PREFIX = "/api/v1/widget";
export const SOURCES_PREFIX = "/api/v1/workspace/sources";
export const WORDPRESS_PREFIX = "/api/v1/wp";
/** The workspace API besides the Sources API: labelling conversations with an API token. */
export const WORKSPACE_PREFIX = "/api/v1/workspace";
const BODY_LIMIT_BYTES = 3 * 1024 * 1024;

export interface BuildAppOptions {
  /** A pino logger for request logs; silent when absent. */
  loggerInstance?: FastifyBaseLogger;
  /** Where the built widget is (widget.js, assets/); packages/widget/dist by default. */
  widgetBuildDirectory?: string;
}

/** The HTTP application, every plugin registered explicitly and in order. Does not listen. */
export async function buildApp(services: Services, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { trustedProxies } = services.config.http;
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    trustProxy: trustedProxies.length > 0 ? trustedProxies : false,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
    requestIdHeader: "x-request-id",
    // One line per request instead (http/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    ...serverOptions(services.config.http.timeouts),
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate("services", services);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestLog(app);
  registerErrorHandling(app);
  registerJsonBodies(app, BODY_LIMIT_BYTES);
  registerStorableInput(app);
  refuseRequestsWhileClosing(app);
  registerWidgetCors(app, WIDGET_PREFIX);
  registerConsoleCors(app, CONSOLE_PREFIX, publicOrigin(services.config));
  registerHttpMetrics(app, services.metrics);
  registerRetrievalMetrics(services.metrics, services.lexical.indexes);
  registerRateLimiterMetrics(services.metrics, services.limiter);
  registerJobQueueMetrics(services.metrics, services.db, (error) => app.log.warn({ err: error }, "job queue metrics unavailable"));

  await registerOpenApi(app, services.config);

  await app.register(healthRoutes);
  await app.register(logoRoute);
  const widgetBuild = loadWidgetBuild(options.widgetBuildDirectory);
  if (!widgetBuild.ready) app.log.warn({ directory: widgetBuild.directory }, widgetBuild.problem);
  await app.register(widgetAssetRoutes, { build: widgetBuild });
  await app.register(consoleAppRoutes);
  if (services.config.demo) await app.register(demoPageRoute);
  await app.register(widgetRoutes, { prefix: WIDGET_PREFIX });
  await app.register(messageRoutes, { prefix: WIDGET_PREFIX });
  await app.register(visitorConversationRoutes, { prefix: WIDGET_PREFIX });
  await app.register(visitorErasureRoutes, { prefix: WIDGET_PREFIX });
  await app.register(visitorAttachmentRoutes, { prefix: WIDGET_PREFIX });
  await app.register(mailWidgetRoutes, { prefix: WIDGET_PREFIX });
  await app.register(broadcastingAuthRoute, { prefix: WIDGET_PREFIX });
  await app.register(sourcesRoutes, { prefix: SOURCES_PREFIX });
  await app.register(fileRoutes, { prefix: FILES_PREFIX });
  await app.register(wordpressRoutes, { prefix: WORDPRESS_PREFIX });
  await app.register(conversationLabelApiRoutes, { prefix: WORKSPACE_PREFIX });
  await app.register(inboundMailRoutes, { prefix: INBOUND_MAIL_PREFIX });
  // The console API: its shared cookie and role guard, then each domain's console routes.
  await app.register(
    async (consoleApi) => {
      await registerConsoleSurface(consoleApi);
      for (const routes of [
        sessionRoutes,
        secondStepRoutes,
        twoFactorRoutes,
        ssoRoutes,
        setupRoutes,
        agentRoutes,
        knowledgeRoutes,
        operatorBroadcastingAuthRoute,
        conversationActionRoutes,
        conversationSnoozeRoutes,
        consoleAttachmentRoutes,
        conversationReadRoutes,
        notificationRoutes,
        leadRoutes,
        tokenRoutes,
        operatorRoutes,
        usageRoutes,
        analyticsRoutes,
        answerReviewRoutes,
        curatedAnswerRoutes,
        answerTestRoutes,
        noteRoutes,
        savedReplyRoutes,
        labelRoutes,
        conversationLabelRoutes,
        visitorProfileRoutes,
        visitorPrivacyRoutes,
        webhookRoutes,
        mailRoutes,
        pushRoutes,
        modelProviderRoutes,
        embeddingsRoutes,
      ]) {
        await consoleApi.register(routes);
      }
    },
    { prefix: CONSOLE_PREFIX },
  );
  await registerRealtime(app);

  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
  await app.ready();
  return app;
}
