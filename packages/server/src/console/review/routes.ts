import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { operatorGuard, operatorOf } from "../authenticate-operator.js";
import { listAnswerReviewPage } from "./list-answer-reviews.js";
import { listAnswerReviewsRouteSchema } from "./schemas.js";

/** GET /api/v1/console/answers: the review queue of the workspace's bot answers. */
export const answerReviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = app.services;
  app.get("/answers", { schema: listAnswerReviewsRouteSchema, preValidation: operatorGuard(services) }, async (request) =>
    listAnswerReviewPage(services, operatorOf(request), request.query),
  );
};
