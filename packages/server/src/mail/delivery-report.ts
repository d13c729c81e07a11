import { replyKeysInReferences } from "./reply-key.js";

/** A delivery status notification (RFC 3464) about a mail of ours: what an admin is told of a bounce. */
export interface DeliveryReport {
  /** Whether a recipient's `Action` is `failed` (a bounce); `delayed`, `delivered`, `relayed` and `expanded` are not. */
  failed: boolean;
  /** That recipient's `Status` (`5.1.1`), or null when it has none that reads as one. */
  status: string | null;
  /** That recipient's `Diagnostic-Code` (`smtp; 550 5.1.1 …`): plain text on one line, at most 300 characters. */
  diagnostic: string | null;
  /** The reply keys of our Message-IDs in the returned message or headers, then in the report's In-Reply-To/References. */
  replyKeys: string[];
}

const DIAGNOSTIC_LENGTH = 300;

/** One line of plain text: every control character (a line break too) a space, runs of spaces one, capped. */
const plainLine = (value: string, length: number): string => value.replace(/[\p{Cc}\p{Cf}\s]+/gu, " ").trim().slice(0, length);

/** The groups of a `message/delivery-status` body (the message's fields, then one group per recipient), each field name in lower case. */
function fieldGroups(body: string): Map<string, string>[] {
  return body
    .replace(/\r\n/g, "\n")
    .replace(/\n[ \t]+/g, " ")
    .split(/\n\s*\n/)
    .map((group) => {
      const fields = new Map<string, string>();
      for (const line of group.split("\n")) {
        const colon = line.indexOf(":");
        if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      return fields;
    });
}

/** The Message-IDs named by the header lines (Message-ID first, then In-Reply-To and References) of a returned message or its headers. */
function returnedIds(returned: string): string[] {
  const unfolded = returned.replace(/\r?\n[ \t]+/g, " ");
  const named = (name: string) => [...unfolded.matchAll(new RegExp(`^${name}:[ \\t]*(.*)$`, "gim"))].flatMap((match) => (match[1] ?? "").split(/\s+/)).filter(Boolean);
  // replyKeysInReferences reads newest last: the returned Message-ID, the mail that bounced, goes last.
  return [...named("references"), ...named("in-reply-to"), ...named("message-id")];
}

/**
 * The report read from a `multipart/report; report-type=delivery-status` mail: `deliveryStatus` is
 * its `message/delivery-status` part, `returned` the returned message or its headers
 * (`message/rfc822`, `text/rfc822-headers`, as text), `references` the report's own In-Reply-To and
 * References. The first recipient whose Action is `failed` gives the status and diagnostic.
 */
export function readDeliveryReport(deliveryStatus: string, returned: string, references: readonly string[]): DeliveryReport {
  const recipients = fieldGroups(deliveryStatus).filter((fields) => fields.has("action"));
  const failed = recipients.find((fields) => /^failed\b/i.test(fields.get("action") ?? ""));
  const status = /^[245]\.\d{1,3}\.\d{1,3}\b/.exec(failed?.get("status") ?? "")?.[0] ?? null;
  const diagnostic = failed?.get("diagnostic-code");
  const fromReturned = replyKeysInReferences(returnedIds(returned));
  return {
    failed: failed !== undefined,
    status,
    diagnostic: diagnostic ? plainLine(diagnostic, DIAGNOSTIC_LENGTH) || null : null,
    replyKeys: [...new Set([...fromReturned, ...replyKeysInReferences(references)])],
  };
}

/** What the admin delivery log says of a bounced mail: "bounced: 5.1.1 (smtp; 550 5.1.1 user unknown)". */
export function bounceAnswerOf(report: DeliveryReport): string {
  const diagnostic = report.diagnostic ? ` (${report.diagnostic})` : "";
  return `bounced: ${report.status ?? "no status"}${diagnostic}`;
}
