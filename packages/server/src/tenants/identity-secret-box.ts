import { randomBytes } from "node:crypto";
import { SecretBox } from "../auth/secret-box.js";
import type { Config } from "../config/config.js";
import { resolveJwtSecret } from "../config/jwt-secret.js";

/**
 * Seals agents' identity secrets for storage (auth/secret-box.ts: AES-256-GCM under a key derived
 * from the service's secret for this purpose, the agent's id as associated data). Init must compute
 * the HMAC with the secret itself, so it is sealed, not hashed; no API returns it after its creation.
 */
export type IdentitySecretBox = SecretBox;

export const identitySecretBox = (serviceSecret: string): IdentitySecretBox => new SecretBox(serviceSecret, "agent visitor identity secret");

/** One box per configuration: the service's secret may live in a file of the data dir, read once rather than at every init. */
const boxes = new WeakMap<Config, Promise<IdentitySecretBox>>();

export function identitySecretBoxOf(config: Config): Promise<IdentitySecretBox> {
  let box = boxes.get(config);
  if (!box) {
    box = resolveJwtSecret(config.auth.jwtSecret, config.dataDir).then(identitySecretBox);
    box.catch(() => boxes.delete(config));
    boxes.set(config, box);
  }
  return box;
}

/** A new identity secret: `fid_` and 32 random bytes in base64url. The site's back end uses the whole string as the HMAC key. */
export function generateIdentitySecret(): string {
  return `fid_${randomBytes(32).toString("base64url")}`;
}
