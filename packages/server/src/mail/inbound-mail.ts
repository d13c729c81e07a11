import { createHash } from "node:crypto";
import type { AddressObject, ParsedMail, StructuredHeader } from "mailparser";
import { loadOnFirstUse } from "../startup/load-on-first-use.js";

const loadMailparser = loadOnFirstUse(() => import("mailparser"));
import { readDeliveryReport, type DeliveryReport } from "./delivery-report.js";

/** Where an inbound mail came from. */
export type InboundChannel = "imap" | "mailgun" | "postmark";

/** An inbound mail, whatever brought it: what matching and storing it read. */
export interface InboundMail {
  channel: InboundChannel;
  /** Its Message-ID, or null when it has none. */
  messageId: string | null;
  /** Its key for "received once": the Message-ID, or the SHA-256 of the raw mail (or post) without one. */
  inboundKey: string;
  /** The From address, lower case; null when there is none, or more than one. */
  from: string | null;
  /** Every recipient address (To, Cc, Delivered-To and the provider's envelope recipient): the sub-address may carry the reply key. */
  recipients: string[];
  /** In-Reply-To then References. */
  references: string[];
  /** The text part, or the text mailparser made from the HTML part. */
  text: string;
  attachments: number;
  /** Auto-Submitted other than "no", or a Precedence of bulk, list or junk: an automatic mail (an out-of-office), not the visitor's words. */
  automatic: boolean;
  /** A delivery status notification (`multipart/report; report-type=delivery-status`) about a mail: never a visitor's words. Null for any other mail. */
  deliveryReport: DeliveryReport | null;
}

/** Why a raw mail cannot be read. */
export class UnreadableMailError extends Error {}

const addresses = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((object) => object.value.map((entry) => entry.address ?? "")).filter((address) => address !== "");

export const inboundKeyOf = (messageId: string | null, raw: string | Buffer): string =>
  messageId !== null ? `mid:${messageId.slice(0, 500)}` : `sha256:${createHash("sha256").update(raw).digest("hex")}`;

const idList = (value: string | string[] | undefined): string[] => (Array.isArray(value) ? value : value ? value.split(/\s+/) : []).map((id) => id.trim()).filter(Boolean);

/** Whether the headers say a program sent it (RFC 3834's Auto-Submitted, or a list's Precedence). */
export function isAutomatic(autoSubmitted: string | undefined, precedence: string | undefined): boolean {
  return (autoSubmitted !== undefined && autoSubmitted.trim().toLowerCase() !== "no") || (precedence !== undefined && /^(bulk|list|junk)$/i.test(precedence.trim()));
}

/** The report of a delivery status notification (RFC 3464), or null when the mail is none. */
function deliveryReportOf(parsed: ParsedMail, raw: Buffer, references: string[]): DeliveryReport | null {
  const contentType = parsed.headers.get("content-type") as StructuredHeader | undefined;
  if (contentType?.value?.toLowerCase() !== "multipart/report" || contentType.params?.["report-type"]?.toLowerCase() !== "delivery-status") return null;
  const partsOf = (...types: string[]) => parsed.attachments.filter((attachment) => types.includes(attachment.contentType.toLowerCase())).map((attachment) => attachment.content.toString("utf8"));
  // mailparser reads a returned message/rfc822 as parts of its own, without its headers: those are read in the raw body.
  const rawBody = raw.toString("latin1").replace(/^[\s\S]*?\r?\n\r?\n/, "");
  const statusParts = partsOf("message/delivery-status");
  return readDeliveryReport(statusParts.length > 0 ? statusParts.join("\n\n") : rawBody, [...partsOf("text/rfc822-headers", "message/rfc822"), rawBody].join("\n\n"), references);
}

/**
 * A raw mail (RFC 5322, as IMAP or a provider's raw-MIME post gives it) read with mailparser:
 * headers, the text part (or text made from the HTML part; attachments are counted, never read
 * further). Throws UnreadableMailError when it is not a mail: no header block, or no From, To and
 * Message-ID at all.
 */
export async function parseRawMail(raw: Buffer, channel: InboundChannel): Promise<InboundMail> {
  const head = raw.subarray(0, 64 * 1024).toString("latin1");
  if (!/^[\x21-\x39\x3b-\x7e]+:/m.test(head) || !/\r?\n\r?\n/.test(head)) throw new UnreadableMailError("no header block");
  const { simpleParser } = await loadMailparser();
  let parsed;
  try {
    parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, skipTextLinks: true, keepDeliveryStatus: true, maxHtmlLengthToParse: 1024 * 1024 });
  } catch (error) {
    throw new UnreadableMailError(`mailparser: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!parsed.from && !parsed.to && !parsed.messageId) throw new UnreadableMailError("no From, To or Message-ID header");
  const from = addresses(parsed.from);
  const header = (name: string) => {
    const value = parsed.headers.get(name);
    return typeof value === "string" ? value : undefined;
  };
  const deliveredTo = parsed.headerLines.filter((line) => line.key === "delivered-to" || line.key === "x-original-to").map((line) => line.line.slice(line.line.indexOf(":") + 1).trim());
  const messageId = parsed.messageId ?? null;
  const references = [...idList(parsed.inReplyTo), ...idList(parsed.references)];
  return {
    channel,
    messageId,
    inboundKey: inboundKeyOf(messageId, raw),
    from: from.length === 1 ? from[0]!.toLowerCase() : null,
    recipients: [...addresses(parsed.to), ...addresses(parsed.cc), ...deliveredTo],
    references,
    text: parsed.text ?? "",
    attachments: parsed.attachments.length,
    automatic: isAutomatic(header("auto-submitted"), header("precedence")),
    deliveryReport: deliveryReportOf(parsed, raw, references),
  };
}
