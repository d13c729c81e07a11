import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A new endpoint's signing secret: `whsec_` and 32 random bytes in base64url (receivers use the whole string as the HMAC key). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** What the console and the CLI show of a secret after its creation: enough to recognise it. */
export function webhookSecretPrefix(secret: string): string {
  return secret.slice(0, 10);
}

/**
 * Seals endpoints' signing secrets for storage. A signing secret must be readable again to sign
 * each delivery, so it is encrypted (AES-256-GCM), not hashed; the key is derived (HKDF-SHA256)
 * from the service's secret (FRONTDESK_JWT_SECRET, or the one kept in the data dir), so a copy
 * of the database alone does not reveal it. The endpoint's id is the associated data: a sealed
 * secret copied onto another endpoint's row does not open.
 */
export class WebhookSecretBox {
  private readonly key: Buffer;

  constructor(serviceSecret: string) {
    this.key = Buffer.from(hkdfSync("sha256", serviceSecret, "frontdesk", "webhook endpoint signing secret", 32));
  }

  seal(secret: string, endpointId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(endpointId, "utf8"));
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString("base64url")}.${sealed.toString("base64url")}`;
  }

  /** The secret, or null when it was sealed under another key (the service's secret changed) or for another endpoint. */
  open(sealed: string, endpointId: string): string | null {
    const [version, ivText, bodyText] = sealed.split(".");
    if (version !== VERSION || ivText === undefined || bodyText === undefined) return null;
    const iv = Buffer.from(ivText, "base64url");
    const body = Buffer.from(bodyText, "base64url");
    if (iv.length !== IV_BYTES || body.length <= TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
      decipher.setAAD(Buffer.from(endpointId, "utf8"));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      return null;
    }
  }
}
