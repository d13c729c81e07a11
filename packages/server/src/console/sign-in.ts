import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import type { SignedInOperator } from "./authenticate-operator.js";
import { findOperatorCredentials } from "../tenants/operators.js";
import { verifyAgainstDummy, verifyPassword } from "./password-hash.js";
import { startOperatorSession, type StartedOperatorSession } from "./start-operator-session.js";

/**
 * POST /api/v1/console/session: checks the e-mail's password and starts a session. An unknown
 * e-mail, an operator without a password yet and a wrong password get the same answer after the
 * same work (a scrypt of the attempt), so neither the answer nor its timing tells which.
 */
export async function signIn(services: Services, input: { email: string; password: string }): Promise<{ operator: SignedInOperator; session: StartedOperatorSession }> {
  const found = await findOperatorCredentials(services.db, input.email);
  const matches = found?.passwordHash ? await verifyPassword(input.password, found.passwordHash) : await verifyAgainstDummy(input.password);
  if (!found || !matches) throw new AppError("invalid_credentials", "The e-mail or the password is wrong.");
  return { operator: found.operator, session: await startOperatorSession(services, found.operator.id) };
}
