import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** What a resume link reopens: one conversation of one visitor with one agent. */
export interface ResumeClaims {
  conversationId: string;
  visitorId: string;
  agentId: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What the token's key is derived for: another use of the service's secret cannot open it. */
const KEY_INFO = "frontdesk resume link v1";

/**
 * The token of an e-mailed "continue the conversation" link (issue 30): the conversation, its visitor
 * and agent and an expiry, sealed with AES-256-GCM under a key derived by HKDF-SHA256 from the
 * service's secret. Sealed rather than only signed, so the link shows no id; authenticated, so a
 * changed byte or another deployment's token does not open. Base64url: it travels in a URL fragment.
 */
export class ResumeTokens {
  private readonly key: Buffer;

  constructor(serviceSecret: string, private readonly now: () => number = Date.now) {
    this.key = Buffer.from(hkdfSync("sha256", serviceSecret, "", KEY_INFO, 32));
  }

  issue(claims: ResumeClaims, ttlMs: number): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = JSON.stringify({ c: claims.conversationId, v: claims.visitorId, a: claims.agentId, e: Math.floor((this.now() + ttlMs) / 1000) });
    const sealed = Buffer.concat([cipher.update(body, "utf8"), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString("base64url");
  }

  /** The claims of a token this service sealed and that has not expired; null otherwise (never throws). */
  open(token: string): ResumeClaims | null {
    try {
      const raw = Buffer.from(token, "base64url");
      if (raw.length < IV_BYTES + TAG_BYTES + 2) return null;
      const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
      const parsed = JSON.parse(text) as { c?: unknown; v?: unknown; a?: unknown; e?: unknown };
      if (typeof parsed.c !== "string" || typeof parsed.v !== "string" || typeof parsed.a !== "string" || typeof parsed.e !== "number") return null;
      if (parsed.e * 1000 <= this.now()) return null;
      return { conversationId: parsed.c, visitorId: parsed.v, agentId: parsed.a };
    } catch {
      return null;
    }
  }
}
