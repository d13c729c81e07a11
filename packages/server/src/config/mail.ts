import type { Env } from "./env-schema.js";
import { ENV_PREFIX } from "./env-schema.js";

/** A mailbox: an address and, maybe, the name shown with it. */
export interface Mailbox {
  address: string;
  name: string | null;
}

/** Outbound e-mail (src/mail/): where it goes out, as whom, how it is retried, and when an unseen message is mailed. */
export interface MailConfig {
  /** `smtp://` or `smtps://`, user and password in the URL; null: no SMTP, mails wait in the outbox. */
  smtpUrl: string | null;
  from: Mailbox | null;
  /** A PEM file of the certificate authorities the SMTP server's certificate is checked against, instead of the system's. */
  tlsCaFile: string | null;
  /** Connection, greeting and each command's answer must come within this. */
  timeoutMs: number;
  /** Attempts per mail, the first included; then it is `failed`. */
  attempts: number;
  /** The wait before the first retry, doubled after each. */
  retryBaseMs: number;
  /** Mails a worker process sends at once. */
  concurrency: number;
  /** A message the visitor (or the operator who has the conversation) has not seen for this long is e-mailed. */
  unseenDelayMs: number;
}

/**
 * Whether `value` is one plain e-mail address we send to: a local part and a domain of printable
 * ASCII without spaces, quotes, angle brackets, commas or semicolons (so never a list, a display
 * name or a header in disguise), at most 254 characters. Stricter than RFC 5322 on purpose.
 */
export function isMailAddress(value: string): boolean {
  return value.length <= 254 && /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/.test(value);
}

/** `Name <address>` or `address`; null when it is neither, or the name holds a line break or a control character. */
export function parseMailbox(value: string): Mailbox | null {
  const trimmed = value.trim();
  const named = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  const address = named ? named[2]!.trim() : trimmed;
  const name = named ? named[1]!.trim().replace(/^"(.*)"$/, "$1") : null;
  if (!isMailAddress(address)) return null;
  if (name !== null && /[\u0000-\u001f\u007f]/.test(name)) return null;
  return { address, name: name === "" ? null : name };
}

export function mailConfigFor(env: Env): MailConfig {
  return {
    smtpUrl: env.SMTP_URL ?? null,
    from: env.MAIL_FROM === undefined ? null : parseMailbox(env.MAIL_FROM),
    tlsCaFile: env.SMTP_TLS_CA ?? null,
    timeoutMs: Math.round(env.SMTP_TIMEOUT_SECONDS * 1000),
    attempts: env.MAIL_ATTEMPTS,
    retryBaseMs: env.MAIL_RETRY_BASE_MS,
    concurrency: env.MAIL_CONCURRENCY,
    unseenDelayMs: env.EMAIL_UNSEEN_DELAY_SECONDS * 1000,
  };
}

/** The mail settings' problems that only show together (checked with the other cross-field rules). */
export function mailProblems(env: Env): string[] {
  const problems: string[] = [];
  if (env.MAIL_FROM !== undefined && parseMailbox(env.MAIL_FROM) === null) {
    problems.push(`${ENV_PREFIX}MAIL_FROM: must be an e-mail address, or "Name <address>" (no line breaks)`);
  }
  if (env.SMTP_URL !== undefined && env.MAIL_FROM === undefined) {
    problems.push(`${ENV_PREFIX}MAIL_FROM: required when ${ENV_PREFIX}SMTP_URL is set (the sender of every mail)`);
  }
  return problems;
}
