import { randomBytes, scrypt } from "node:crypto";
import { replaceOperatorPassword } from "../../src/tenants/operator-credentials-repository.js";
import { PASSWORD_HASH_PARAMETERS } from "../../src/console/password-hash.js";
import type { Services } from "../../src/services.js";

/**
 * The scrypt cost of the passwords test fixtures give operators: N = 2^10 (1 MiB, about a millisecond)
 * instead of production's 2^15 (32 MiB, 0.15 s of a core, several times that on a loaded test machine).
 * `verifyPassword` reads the cost from the stored hash, so a sign-in with such a password runs the real
 * check, only cheaper. Production hashing has no knob: `hashPassword` always uses PASSWORD_HASH_PARAMETERS
 * (sign-in.test.ts checks the stored cost of a password set by `admin operator set-password`).
 */
export const FIXTURE_PASSWORD_COST = { N: 2 ** 10, r: 8, p: 1 } as const;

/** `password` in the stored form of password-hash.ts (`scrypt$N$r$p$salt$key`, base64url) at FIXTURE_PASSWORD_COST. */
export async function fixturePasswordHash(password: string): Promise<string> {
  const { N, r, p } = FIXTURE_PASSWORD_COST;
  const salt = randomBytes(PASSWORD_HASH_PARAMETERS.saltBytes);
  const key = await new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, PASSWORD_HASH_PARAMETERS.keyBytes, { N, r, p }, (error, derived) => (error ? reject(error) : resolve(derived)));
  });
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/**
 * Gives the operator `password` (at the fixtures' cost), as `admin operator set-password` would:
 * the operator's sessions and unused set-password links end.
 */
export async function giveOperatorPassword(services: Pick<Services, "db" | "now">, operatorId: string, password: string): Promise<void> {
  const passwordHash = await fixturePasswordHash(password);
  const given = await services.db.transaction((tx) => replaceOperatorPassword(tx, operatorId, passwordHash, services.now()));
  if (!given) throw new Error(`no operator ${operatorId}`);
}
