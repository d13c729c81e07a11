import type { FastifyRequest } from "fastify";
import type { Services } from "../services.js";
import { authenticateOperator, requireAdmin } from "./authenticate-operator.js";

/**
 * A preValidation hook for the console's admin routes: the session (401), the Origin of a
 * state-changing request (403 `csrf_origin_mismatch`), then the role (403 `forbidden` for an
 * `agent`), all before the body is read, so an agent learns nothing from validation errors.
 */
export function adminGuard(services: Services) {
  return async (request: FastifyRequest): Promise<void> => {
    requireAdmin(await authenticateOperator(services, request));
  };
}
