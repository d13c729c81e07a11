import type { Services } from "../services.js";
import { generateConsoleSecret, hashConsoleSecret } from "./console-secret.js";
import { insertOperatorSession } from "../tenants/operator-sessions.js";

export interface StartedOperatorSession {
  /** The cookie's value: shown once, only its hash is stored. */
  secret: string;
  expiresAt: Date;
}

/** A new server-side session of the operator (after a correct password, or the workspace's OpenID provider: its ID token sealed). */
export async function startOperatorSession(services: Services, operatorId: string, ssoIdTokenSealed: string | null = null): Promise<StartedOperatorSession> {
  const secret = generateConsoleSecret();
  const { expiresAt } = await insertOperatorSession(services.db, operatorId, hashConsoleSecret(secret), services.now(), ssoIdTokenSealed);
  return { secret, expiresAt };
}
