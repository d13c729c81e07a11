import type { Queryable } from "../db/database.js";
import { generateConsoleSecret, hashConsoleSecret } from "./console-secret.js";
import { insertPasswordToken } from "../tenants/operators.js";

export interface SetPasswordLink {
  url: string;
  expiresAt: Date;
}

/**
 * A one-time link to choose a password: `{public url}/console/set-password#token=…` (in the
 * fragment, so it never reaches a server log or a Referer), valid 24 hours. Only its hash is kept.
 */
export async function issueSetPasswordLink(db: Queryable, publicUrl: string, operatorId: string, now: Date): Promise<SetPasswordLink> {
  const token = generateConsoleSecret();
  const expiresAt = await insertPasswordToken(db, operatorId, hashConsoleSecret(token), now);
  return { url: `${publicUrl}/console/set-password#token=${token}`, expiresAt };
}
