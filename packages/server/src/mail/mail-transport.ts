import { readFile } from "node:fs/promises";
import type { Transporter } from "nodemailer";
import { loadOnFirstUse } from "../startup/load-on-first-use.js";
import { replyAddressFor } from "../config/inbound-mail.js";
import type { MailConfig, Mailbox } from "../config/mail.js";
import { messageIdFor } from "./reply-key.js";

/** One mail as the SMTP server gets it. */
export interface OutgoingMail {
  to: Mailbox;
  subject: string;
  text: string;
  html: string;
  language: string;
  /** A mail a visitor may answer: its Message-ID carries the key and, with FRONTDESK_MAIL_REPLY_TO, so does its Reply-To. */
  replyKey?: string | null;
}

/** What one attempt came to. `permanent`: the server refused with a 5xx reply, trying again would not help. */
export type SendOutcome =
  | { ok: true; messageId: string | null; response: string | null; durationMs: number }
  | { ok: false; permanent: boolean; code: number | null; detail: string; durationMs: number };

interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/**
 * The SMTP client: nodemailer's SMTP transport, one connection per mail (mails are few; a pool
 * would hold connections open for nothing), STARTTLS whenever the server offers it (`smtp://`) or
 * TLS from the first byte (`smtps://`), user and password from the URL. Every wait is bounded
 * (connection, greeting, each command's answer: FRONTDESK_SMTP_TIMEOUT_SECONDS), so a server that
 * hangs costs one attempt, not a worker. Addresses and header text are checked before (queue-mail.ts).
 */
export class MailTransport {
  constructor(
    private readonly config: MailConfig & { smtpUrl: string; from: Mailbox },
    private readonly transport: Transporter,
    private readonly replyTo: string | null = null,
  ) {}

  async send(mail: OutgoingMail): Promise<SendOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const key = mail.replyKey ?? null;
    try {
      const info = (await this.transport.sendMail({
        ...(key === null ? {} : { messageId: messageIdFor(key, this.config.from.address) }),
        ...(key === null || this.replyTo === null ? {} : { replyTo: replyAddressFor(this.replyTo, key) }),
        from: { address: this.config.from.address, name: this.config.from.name ?? "" },
        to: { address: mail.to.address, name: mail.to.name ?? "" },
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: { "Content-Language": mail.language, "Auto-Submitted": "auto-generated" },
      })) as { messageId?: string; response?: string };
      return { ok: true, messageId: info.messageId ?? null, response: info.response ?? null, durationMs: elapsed() };
    } catch (error) {
      const smtp = error as SmtpError;
      const code = typeof smtp.responseCode === "number" ? smtp.responseCode : null;
      const detail = [smtp.code, smtp.response ?? smtp.message].filter(Boolean).join(": ") || String(error);
      return { ok: false, permanent: code !== null && code >= 500, code, detail, durationMs: elapsed() };
    }
  }

  close(): void {
    this.transport.close();
  }
}

const loadNodemailer = loadOnFirstUse(() => import("nodemailer"));

/** The transport of the configuration, or null when no SMTP server is configured (mails wait in the outbox). */
export async function createMailTransport(config: MailConfig, replyTo: string | null = null): Promise<MailTransport | null> {
  if (config.smtpUrl === null || config.from === null) return null;
  let ca: string | undefined;
  if (config.tlsCaFile !== null) {
    try {
      ca = await readFile(config.tlsCaFile, "utf8");
    } catch (error) {
      throw new Error(`FRONTDESK_SMTP_TLS_CA: cannot read ${config.tlsCaFile} (${(error as Error).message})`);
    }
  }
  const { default: nodemailer } = await loadNodemailer();
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    connectionTimeout: config.timeoutMs,
    greetingTimeout: config.timeoutMs,
    socketTimeout: config.timeoutMs,
    dnsTimeout: config.timeoutMs,
    pool: false,
    disableFileAccess: true,
    disableUrlAccess: true,
    ...(ca ? { tls: { ca } } : {}),
  });
  return new MailTransport({ ...config, smtpUrl: config.smtpUrl, from: config.from }, transport, replyTo);
}
