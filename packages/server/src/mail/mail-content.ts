/**
 * What a mail says, as blocks, and its two parts rendered from them: a plain-text part and a small
 * HTML part (one column, system fonts, a real link per action, the language and direction set, no
 * images, no remote content, no script). Every piece of text is untrusted (a visitor's words, an
 * operator's or agent's name): escaped in the HTML part, never interpreted.
 */
export type MailBlock =
  | { kind: "paragraph"; text: string }
  /** A labelled value, e.g. the visitor's reason or page. */
  | { kind: "field"; label: string; text: string }
  /** Quoted words of someone else (a visitor's message, an operator's reply). */
  | { kind: "quote"; who: string; text: string }
  /** The action: a link, shown as a button in HTML and as the bare URL in text. */
  | { kind: "link"; label: string; url: string }
  /** A smaller closing line: why the recipient gets this. */
  | { kind: "footer"; text: string };

export interface MailContent {
  language: string;
  direction: "ltr" | "rtl";
  subject: string;
  blocks: MailBlock[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const MAX_SUBJECT_LENGTH = 200;

/**
 * Text fit for a header (a subject, a display name): every control character, line breaks
 * included, becomes a space, so no header can be ended or added by what a visitor typed; at most
 * 200 characters. nodemailer encodes what remains (RFC 2047).
 */
export function headerText(value: string, maxLength = MAX_SUBJECT_LENGTH): string {
  const flat = value.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]+/gu, " ").replace(/\s+/gu, " ").trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 1)}…` : flat;
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Only http(s) URLs become links; anything else is shown as text. */
const isWebUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
};

const paragraphsOf = (text: string) => escapeHtml(text).replace(/\r\n|\r|\n/g, "<br>");

function blockText(block: MailBlock): string {
  switch (block.kind) {
    case "paragraph":
      return block.text;
    case "field":
      return `${block.label}: ${block.text}`;
    case "quote":
      return `${block.who}:\n${block.text.split(/\r\n|\r|\n/).map((line) => `> ${line}`).join("\n")}`;
    case "link":
      return `${block.label}: ${block.url}`;
    case "footer":
      return `--\n${block.text}`;
  }
}

function blockHtml(block: MailBlock): string {
  switch (block.kind) {
    case "paragraph":
      return `<p style="margin:0 0 16px">${paragraphsOf(block.text)}</p>`;
    case "field":
      return `<p style="margin:0 0 8px"><strong>${escapeHtml(block.label)}:</strong> ${paragraphsOf(block.text)}</p>`;
    case "quote":
      return (
        `<p style="margin:16px 0 4px"><strong>${escapeHtml(block.who)}</strong></p>` +
        `<blockquote style="margin:0 0 16px;padding:8px 12px;border-inline-start:4px solid #6b7280;background:#f3f4f6;color:#111827">${paragraphsOf(block.text)}</blockquote>`
      );
    case "link":
      return isWebUrl(block.url)
        ? `<p style="margin:24px 0"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:10px 16px;background:#1d4ed8;color:#ffffff;text-decoration:underline;border-radius:6px">${escapeHtml(block.label)}</a></p>`
        : `<p style="margin:0 0 16px">${escapeHtml(block.label)}: ${escapeHtml(block.url)}</p>`;
    case "footer":
      return `<p style="margin:32px 0 0;font-size:13px;color:#4b5563">${paragraphsOf(block.text)}</p>`;
  }
}

/** The subject (header-safe), the plain-text part and the HTML part of a mail. */
export function renderMail(content: MailContent): RenderedMail {
  const subject = headerText(content.subject);
  const text = `${content.blocks.map(blockText).join("\n\n")}\n`;
  const html =
    `<!doctype html><html lang="${escapeHtml(content.language)}" dir="${content.direction}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#ffffff;color:#111827;font:16px/1.5 -apple-system,'Segoe UI',Roboto,Arial,sans-serif">` +
    `<main style="max-width:600px">${content.blocks.map(blockHtml).join("")}</main></body></html>`;
  return { subject, text, html };
}
