import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals a secret that must be read again (unlike a password, which is hashed) for storage:
 * AES-256-GCM under a key derived (HKDF-SHA256) from the service's secret and the purpose, so a
 * copy of the database alone does not reveal it and a key serves one purpose. The owner's id is
 * the associated data: a sealed value copied onto another row does not open.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serviceSecret: string, purpose: string) {
    this.key = Buffer.from(hkdfSync("sha256", serviceSecret, "frontdesk", purpose, 32));
  }

  seal(secret: string, ownerId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(ownerId, "utf8"));
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `${VERSION}.${iv.toString("base64url")}.${sealed.toString("base64url")}`;
  }

  /** The secret, or null when it was sealed under another key (the service's secret changed) or for another owner. */
  open(sealed: string, ownerId: string): string | null {
    const [version, ivText, bodyText] = sealed.split(".");
    if (version !== VERSION || ivText === undefined || bodyText === undefined) return null;
    const iv = Buffer.from(ivText, "base64url");
    const body = Buffer.from(bodyText, "base64url");
    if (iv.length !== IV_BYTES || body.length <= TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
      decipher.setAAD(Buffer.from(ownerId, "utf8"));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch {
      return null;
    }
  }
}

/** The service's secret boxes by purpose (one key per purpose, made once): what a use case seals with. */
export type SecretBoxes = (purpose: string) => SecretBox;

export function secretBoxesOf(serviceSecret: string): SecretBoxes {
  const boxes = new Map<string, SecretBox>();
  return (purpose) => {
    let box = boxes.get(purpose);
    if (!box) {
      box = new SecretBox(serviceSecret, purpose);
      boxes.set(purpose, box);
    }
    return box;
  };
}
