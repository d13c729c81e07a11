import { generateKeyPairSync } from "node:crypto";
import { ConfigError } from "./config.js";
import { resolveKeptSecret } from "./jwt-secret.js";
import { vapidPublicKeyOf, type PushConfig } from "./push.js";

const KEY_FILE = "vapid-private-key";

/** The service's VAPID key pair (P-256, base64url): the public key is what browsers subscribe with. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** A new P-256 private key, 32 bytes in base64url. */
function generateVapidPrivateKey(): string {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const jwk = privateKey.export({ format: "jwk" });
  if (!jwk.d) throw new Error("a generated P-256 key has no private scalar");
  return jwk.d;
}

/**
 * FRONTDESK_VAPID_PUBLIC_KEY and _PRIVATE_KEY (checked together when the configuration is read),
 * or the private key generated on first start and kept in the data dir (mode 0600, linked into
 * place whole as the service's other kept secrets), its public key derived from it. Browsers'
 * subscriptions are bound to the public key: it must not change while they are in use. A kept
 * file that is not a P-256 key stops the start, naming the file.
 */
export async function resolveVapidKeys(config: PushConfig, dataDir: string): Promise<VapidKeys> {
  if (config.vapidKeys) return config.vapidKeys;
  const privateKey = await resolveKeptSecret(undefined, dataDir, KEY_FILE, generateVapidPrivateKey);
  const publicKey = vapidPublicKeyOf(privateKey);
  if (publicKey === null) {
    throw new ConfigError([`${dataDir}/${KEY_FILE}: is not a P-256 private key in base64url; restore it, or set FRONTDESK_VAPID_PUBLIC_KEY and FRONTDESK_VAPID_PRIVATE_KEY`]);
  }
  return { publicKey, privateKey };
}
