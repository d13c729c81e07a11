import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { convert } from "html-to-text";
import { inboundKeyOf, isAutomatic, type InboundMail } from "./inbound-mail.js";
import type { MailgunPost, PostmarkPost } from "./inbound-schemas.js";

/** How old a Mailgun timestamp may be (a replayed post), in seconds. */
const MAILGUN_TOLERANCE_SECONDS = 300;

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest();

/** Two secrets compared in constant time, whatever their lengths (their digests are compared). */
export const sameSecret = (given: string, expected: string): boolean => timingSafeEqual(sha256(given), sha256(expected));

/**
 * Mailgun's signature of a forwarded mail: the hex HMAC-SHA256 of `timestamp` then `token` under
 * the webhook signing key, compared in constant time, with a timestamp within five minutes.
 */
export function isMailgunSigned(signingKey: string, fields: { timestamp?: unknown; token?: unknown; signature?: unknown }, nowSeconds: number): boolean {
  const { timestamp, token, signature } = fields;
  if (typeof timestamp !== "string" || typeof token !== "string" || typeof signature !== "string") return false;
  if (!/^\d{1,12}$/.test(timestamp) || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > MAILGUN_TOLERANCE_SECONDS) return false;
  const expected = createHmac("sha256", signingKey).update(timestamp + token).digest();
  return timingSafeEqual(Buffer.from(signature.toLowerCase(), "hex"), expected);
}

/** Postmark's basic auth (the user and password in the webhook URL), compared in constant time. */
export function isPostmarkAuthorised(credentials: { user: string; password: string }, authorization: string | undefined): boolean {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? "");
  const decoded = match ? Buffer.from(match[1]!, "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  // Both halves are always compared, so the time does not tell which one was wrong.
  const user = sameSecret(colon < 0 ? "" : decoded.slice(0, colon), credentials.user);
  const password = sameSecret(colon < 0 ? "" : decoded.slice(colon + 1), credentials.password);
  return colon >= 0 && user && password;
}

const ids = (value: string | undefined): string[] => (value ?? "").split(/\s+/).filter(Boolean);
const addressIn = (value: string): string | null => {
  const angle = /<([^<>\s]+@[^<>\s]+)>/.exec(value);
  const bare = angle ? angle[1]! : value.trim();
  return /^[^\s<>@,;]+@[^\s<>@,;]+$/.test(bare) ? bare.toLowerCase() : null;
};
const textOfHtml = (html: string): string => convert(html, { wordwrap: false, selectors: [{ selector: "a", options: { ignoreHref: true } }, { selector: "img", format: "skip" }] });

const fieldOf = (post: MailgunPost, name: string): string | undefined => {
  const key = Object.keys(post).find((candidate) => candidate.toLowerCase() === name);
  const value: unknown = key === undefined ? undefined : post[key];
  return typeof value === "string" ? value : undefined;
};

/** A fully parsed Mailgun post (`forward()` to a URL not ending in `mime`) as an inbound mail. The raw-MIME form is read by parseRawMail. */
export function mailOfMailgunPost(post: MailgunPost): InboundMail {
  let headers: [string, string][] = [];
  try {
    const parsed: unknown = JSON.parse(post["message-headers"] ?? "[]");
    if (Array.isArray(parsed)) headers = parsed.filter((pair): pair is [string, string] => Array.isArray(pair) && typeof pair[0] === "string" && typeof pair[1] === "string");
  } catch {
    // No usable headers: the top-level fields below stand in.
  }
  const header = (name: string): string | undefined => headers.find(([key]) => key.toLowerCase() === name)?.[1] ?? fieldOf(post, name);
  const messageId = header("message-id")?.trim() || null;
  const from = addressIn(post.from ?? header("from") ?? "");
  return {
    channel: "mailgun",
    messageId,
    inboundKey: inboundKeyOf(messageId, `${post.timestamp}.${post.token}`),
    from,
    recipients: [post.recipient ?? "", header("to") ?? "", header("cc") ?? ""].flatMap((list) => list.split(",")).map((entry) => addressIn(entry)).filter((address): address is string => address !== null),
    references: [...ids(header("in-reply-to")), ...ids(header("references"))],
    text: post["body-plain"] ?? (post["body-html"] ? textOfHtml(post["body-html"]) : ""),
    attachments: Number(post["attachment-count"] ?? 0) || 0,
    automatic: isAutomatic(header("auto-submitted"), header("precedence")),
    deliveryReport: null,
  };
}

/** A Postmark inbound post as an inbound mail. */
export function mailOfPostmarkPost(post: PostmarkPost): InboundMail {
  const header = (name: string) => post.Headers?.find((entry) => entry.Name.toLowerCase() === name)?.Value;
  const messageId = header("message-id")?.trim() || null;
  return {
    channel: "postmark",
    messageId,
    inboundKey: inboundKeyOf(messageId, `postmark:${post.MessageID}`),
    from: addressIn(post.FromFull.Email),
    recipients: [...(post.ToFull ?? []), ...(post.CcFull ?? [])].map((entry) => addressIn(entry.Email)).concat(post.OriginalRecipient ? [addressIn(post.OriginalRecipient)] : []).filter((address): address is string => address !== null),
    references: [...ids(header("in-reply-to")), ...ids(header("references"))],
    text: post.TextBody || (post.HtmlBody ? textOfHtml(post.HtmlBody) : ""),
    attachments: post.Attachments?.length ?? 0,
    automatic: isAutomatic(header("auto-submitted"), header("precedence")),
    deliveryReport: null,
  };
}
