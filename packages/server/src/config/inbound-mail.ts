import type { Env } from "./env-schema.js";
import { ENV_PREFIX } from "./env-schema.js";
import { isMailAddress } from "./mail.js";

/** Replies by e-mail (src/mail/inbound/): where they arrive and how a provider's post is authenticated. */
export interface InboundMailConfig {
  /** The address visitors reply to; each mail to a visitor has its key as a sub-address (`local+key@domain`). Null: no Reply-To, replies come back to the sender (FRONTDESK_MAIL_FROM) and are matched by In-Reply-To/References. */
  replyTo: string | null;
  /** `imap://` (STARTTLS whenever offered) or `imaps://`, user and password in the URL; null: no polling. */
  imapUrl: string | null;
  imapMailbox: string;
  imapPollMs: number;
  /** A PEM file of the certificate authorities the IMAP server's certificate is checked against, instead of the system's. */
  imapTlsCaFile: string | null;
  /** The largest raw mail (or provider post) accepted; a larger one is refused, logged. */
  maxBytes: number;
  /** Mailgun's HTTP webhook signing key; null: POST /inbound-mail/mailgun answers 404. */
  mailgunSigningKey: string | null;
  /** The basic-auth `user:password` in the Postmark inbound webhook's URL; null: POST /inbound-mail/postmark answers 404. */
  postmarkCredentials: { user: string; password: string } | null;
}

export function inboundMailConfigFor(env: Env): InboundMailConfig {
  const postmark = env.INBOUND_POSTMARK_CREDENTIALS;
  const colon = postmark?.indexOf(":") ?? -1;
  return {
    replyTo: env.MAIL_REPLY_TO ?? null,
    imapUrl: env.IMAP_URL ?? null,
    imapMailbox: env.IMAP_MAILBOX,
    imapPollMs: env.IMAP_POLL_SECONDS * 1000,
    imapTlsCaFile: env.IMAP_TLS_CA ?? null,
    maxBytes: env.INBOUND_MAIL_MAX_BYTES,
    mailgunSigningKey: env.INBOUND_MAILGUN_SIGNING_KEY ?? null,
    postmarkCredentials: postmark === undefined ? null : { user: postmark.slice(0, colon), password: postmark.slice(colon + 1) },
  };
}

/** The address with `key` as its sub-address: `reply@example.com` → `reply+key@example.com`. */
export function replyAddressFor(replyTo: string, key: string): string {
  const at = replyTo.lastIndexOf("@");
  return `${replyTo.slice(0, at)}+${key}${replyTo.slice(at)}`;
}

export function inboundMailProblems(env: Env): string[] {
  const problems: string[] = [];
  const replyTo = env.MAIL_REPLY_TO;
  // The key and the "+" must fit in the 64 characters of a local part.
  if (replyTo !== undefined && (!isMailAddress(replyTo) || replyTo.slice(0, replyTo.lastIndexOf("@")).includes("+") || replyTo.lastIndexOf("@") > 64 - 25)) {
    problems.push(`${ENV_PREFIX}MAIL_REPLY_TO: must be a plain e-mail address without "+" and with a local part of at most 39 characters (each mail adds "+" and its 24-character key)`);
  }
  return problems;
}
