import type { FastifyRequest } from "fastify";
import type { Services } from "../services.js";
import { authenticateOperator, requireAdmin } from "./authenticate-operator.js";

/** The roles a route's schema requires of the console session (`security: consoleAdminSecurity`); none for most. */
export function requiredConsoleRoles(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null || !("security" in schema) || !Array.isArray(schema.security)) return [];
  return schema.security.flatMap((requirement: unknown) =>
    typeof requirement === "object" && requirement !== null && "consoleSession" in requirement && Array.isArray(requirement.consoleSession)
      ? requirement.consoleSession.filter((role): role is string => typeof role === "string")
      : [],
  );
}

/**
 * A preValidation hook on the whole console API: a route whose schema requires the `admin` role
 * (consoleAdminSecurity, which the OpenAPI document shows) is refused to anyone else here, before
 * its route's own guards and before its body, query or path is validated: the session (401), the
 * Origin of a change (403 `csrf_origin_mismatch`), then the role (403 `forbidden`). So an `agent`
 * learns nothing from validation errors, and no admin route can check the role only in its handler.
 */
export function roleGuard(services: Services) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!requiredConsoleRoles(request.routeOptions.schema).includes("admin")) return;
    requireAdmin(await authenticateOperator(services, request));
  };
}
