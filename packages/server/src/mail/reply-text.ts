import EmailReplyParser from "email-reply-parser";
import { MAX_MESSAGE_LENGTH } from "@frontdesk/contracts";

/** Quoting styles the reply parser does not know, each cut from its first line on. */
const QUOTE_HEADERS = [
  /^-{2,}\s*Original Message\s*-{2,}\s*$/im,
  /^_{10,}\s*$/m, // Outlook's rule above its "From:/Sent:" block
  /^From:\s.+\n(?:.*\n){0,3}?(?:Sent|Date):\s.+$/im,
  /^(?:Sent from my|Envoyé de mon|Von meinem|Enviado desde mi|Inviato da)\b.*$/im,
];

/**
 * The words a visitor wrote in a reply, as plain text: quoted history ("On … wrote:" and `>` lines,
 * Outlook's "From:/Sent:" block, "-----Original Message-----"), the signature ("-- ") and "Sent from
 * my iPhone" cut by email-reply-parser (Crisp's port of GitHub's parser), with the few headers it
 * misses cut by hand; control characters but line breaks and tabs dropped, lines trimmed at their
 * end, at most three blank lines together, and cut at the widget's message length. Never HTML: the
 * caller passes the text part, or the text mailparser made from the HTML part.
 */
export function replyTextOf(text: string): string {
  const normalised = wellFormed(text.replace(/\r\n?/g, "\n"));
  let visible = new EmailReplyParser().parseReply(normalised);
  for (const header of QUOTE_HEADERS) {
    const match = header.exec(visible);
    if (match) visible = visible.slice(0, match.index);
  }
  const cleaned = visible
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u2028\u2029\ufeff]/g, "")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/\n{4,}/g, "\n\n\n")
    .trim();
  return wellFormed(cleaned.slice(0, MAX_MESSAGE_LENGTH)).trim();
}

/** Lone surrogates (which Postgres cannot store) as U+FFFD; the cut above may leave one at the end. */
const wellFormed = (text: string): string => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
