import cookie from "@fastify/cookie";
import type { FastifyInstance } from "fastify";
import { roleGuard } from "./role-guard.js";

/**
 * What every console API route shares, added to the scope app.ts mounts at /api/v1/console before
 * it registers each domain's console routes: the session cookie is read (see
 * authenticate-operator.ts for the guard, CSRF included), and an admin route (its schema's
 * `security: consoleAdminSecurity`) is refused to an agent before anything else (role-guard.ts).
 */
export async function registerConsoleSurface(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  // Before every route's own guards and validation: the role a route's schema requires.
  app.addHook("preValidation", roleGuard(app.services));
}
