import { readFile } from "node:fs/promises";
import type { ImapFlow } from "imapflow";
import { loadOnFirstUse } from "../startup/load-on-first-use.js";
import type { InboundMailConfig } from "../config/inbound-mail.js";
import { parseRawMail, UnreadableMailError } from "./inbound-mail.js";
import { receiveInboundMail, type InboundMailContext, type InboundResult } from "./receive-inbound-mail.js";

/** Every wait of the IMAP conversation (connection, greeting, each answer) is bounded by this. */
const IMAP_TIMEOUT_MS = 30_000;

/** What one poll took: each unseen mail's outcome, in the mailbox's order. */
export interface PollResult {
  outcomes: InboundResult["outcome"][];
}

const loadImapflow = loadOnFirstUse(() => import("imapflow"));

/** The IMAP client of FRONTDESK_IMAP_URL: TLS at once (`imaps://`) or STARTTLS whenever offered (`imap://`), user and password from the URL. */
async function imapClientOf(settings: InboundMailConfig & { imapUrl: string }): Promise<ImapFlow> {
  const url = new URL(settings.imapUrl);
  const secure = url.protocol === "imaps:";
  const ca = settings.imapTlsCaFile === null ? undefined : await readFile(settings.imapTlsCaFile, "utf8");
  const { ImapFlow } = await loadImapflow();
  return new ImapFlow({
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: Number(url.port || (secure ? 993 : 143)),
    secure,
    auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: IMAP_TIMEOUT_MS,
    greetingTimeout: IMAP_TIMEOUT_MS,
    socketTimeout: IMAP_TIMEOUT_MS,
    // A mail's source over the limit is never read: its size is asked first.
    maxLiteralSize: settings.maxBytes + 64 * 1024,
    ...(ca === undefined ? {} : { tls: { ca } }),
  });
}

/**
 * One poll of FRONTDESK_IMAP_MAILBOX: every unseen mail is taken in turn, its size read first (one
 * over FRONTDESK_INBOUND_MAIL_MAX_BYTES is refused unread), then its source, handed to
 * receiveInboundMail, and marked \Seen, so no poll takes it again; a mail that did not enter a
 * conversation (refused, or dropped) is also \Flagged, for a person to look at; a bounce recorded
 * (our mail marked failed) is not. Receiving is
 * idempotent on the Message-ID too, so a process that dies between storing and marking stores
 * nothing twice. The caller makes sure one process polls at a time (register-inbound-mail-poller.ts).
 */
export async function pollImapMailbox(context: InboundMailContext, settings: InboundMailConfig & { imapUrl: string }): Promise<PollResult> {
  const client = await imapClientOf(settings);
  client.on("error", (error: unknown) => context.logger.warn({ err: error }, "IMAP connection error"));
  const outcomes: InboundResult["outcome"][] = [];
  await client.connect();
  try {
    const lock = await client.getMailboxLock(settings.imapMailbox);
    try {
      const unseen = (await client.search({ seen: false }, { uid: true })) || [];
      for (const uid of unseen) {
        const outcome = await takeMail(context, settings, client, uid);
        outcomes.push(outcome);
        const flags = outcome === "stored" || outcome === "duplicate" || outcome === "bounce" ? ["\\Seen"] : ["\\Seen", "\\Flagged"];
        await client.messageFlagsAdd(String(uid), flags, { uid: true });
      }
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => client.close());
  }
  return { outcomes };
}

async function takeMail(context: InboundMailContext, settings: InboundMailConfig, client: ImapFlow, uid: number): Promise<InboundResult["outcome"]> {
  const refuse = (outcome: "too_large" | "malformed", reason: string, size: number | null) => {
    context.metrics.inc({ channel: "imap", outcome });
    context.logger.warn({ channel: "imap", outcome, uid, size, reason }, `inbound mail refused: ${reason}`);
    return outcome;
  };
  const head = await client.fetchOne(String(uid), { size: true }, { uid: true });
  const size = head ? (head.size ?? null) : null;
  if (size === null) return refuse("malformed", "the server gave no size for it", null);
  if (size > settings.maxBytes) return refuse("too_large", `${size} bytes, over FRONTDESK_INBOUND_MAIL_MAX_BYTES (${settings.maxBytes})`, size);
  const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
  const source = message ? message.source : undefined;
  if (!source) return refuse("malformed", "the server gave no source for it", size);
  try {
    const mail = await parseRawMail(source, "imap");
    return (await receiveInboundMail(context, mail)).outcome;
  } catch (error) {
    if (error instanceof UnreadableMailError) return refuse("malformed", error.message, size);
    throw error;
  }
}
