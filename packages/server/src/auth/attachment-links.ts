import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/** How long a signed link to an attachment opens it: as long as the session token it was handed out with. */
export const ATTACHMENT_LINK_LIFETIME_SECONDS = 3600;
/** What the key is derived for: another use of the service's secret cannot make these signatures. */
const KEY_INFO = "frontdesk attachment link v1";

/**
 * The `access` signature of an attachment's link (`?access=<expiry>.<mac>`): an HMAC-SHA256 of the
 * attachment's id and the expiry, under a key derived by HKDF from the service's secret. A browser's
 * `<img>` cannot send the visitor's `Authorization` header, so the links handed to the visitor
 * (and only to them or the workspace's operators) carry it; the link opens that one file, until
 * the expiry. The id is unguessable and the signature binds it, so a link cannot be moved to
 * another attachment or extended.
 */
export class AttachmentLinks {
  private readonly key: Buffer;

  constructor(serviceSecret: string, private readonly now: () => number = Date.now) {
    this.key = Buffer.from(hkdfSync("sha256", serviceSecret, "", KEY_INFO, 32));
  }

  private mac(attachmentId: string, expiresAt: number): string {
    return createHmac("sha256", this.key).update(`${attachmentId}.${expiresAt}`).digest("base64url");
  }

  /** The signature for a link to the attachment, valid for ATTACHMENT_LINK_LIFETIME_SECONDS. */
  sign(attachmentId: string): string {
    const expiresAt = Math.floor(this.now() / 1000) + ATTACHMENT_LINK_LIFETIME_SECONDS;
    return `${expiresAt}.${this.mac(attachmentId, expiresAt)}`;
  }

  /** Whether `access` is this service's signature for the attachment and has not expired (never throws). */
  opens(attachmentId: string, access: string): boolean {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(access);
    if (!match) return false;
    const expiresAt = Number(match[1]);
    if (expiresAt * 1000 <= this.now()) return false;
    const expected = Buffer.from(this.mac(attachmentId, expiresAt));
    const given = Buffer.from(match[2]!);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
