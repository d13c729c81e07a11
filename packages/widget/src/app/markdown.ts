// The markdown subset answers are shown in: paragraphs, bullet and numbered lists, bold, italic,
// inline code and links. It parses to a small tree that the view renders as text nodes and elements;
// no input is ever turned into HTML, so raw HTML in an answer shows as the text it is.

export type Inline =
  | { kind: "text"; text: string }
  | { kind: "strong" | "em"; children: Inline[] }
  | { kind: "code"; text: string }
  | { kind: "link"; href: string; children: Inline[] }
  | { kind: "break" };

export type Block = { kind: "paragraph"; children: Inline[] } | { kind: "list"; ordered: boolean; items: Inline[][] };

/** The URL when it is http(s) or mailto (the only links an answer may carry), else null. */
export function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:" ? url.href : null;
  } catch {
    return null;
  }
}

const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const NUMBERED = /^\s{0,3}\d{1,9}[.)]\s+(.*)$/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*)$/;
// Bold, inline code, a [link](url), italic, a bare URL, a line break: the first that matches wins.
// (Underscores are left alone: identifiers such as __init__ and snake_case are common in answers.)
const INLINE = /\*\*(?=\S)([^]*?\S)\*\*|`([^`\n]+)`|\[([^\]\n]+)\]\(\s*<?([^)\s>]+)>?\s*\)|\*(?=[^\s*])([^*\n]*?[^\s*])\*|\b(https?:\/\/[^\s<>]*[^\s<>.,;:!?'")\]*])|(\n)/g;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pushText = (value: string) => {
    if (!value) return;
    const last = out[out.length - 1];
    if (last?.kind === "text") last.text += value;
    else out.push({ kind: "text", text: value });
  };
  let at = 0;
  for (const match of text.matchAll(INLINE)) {
    const index = match.index ?? 0;
    const [whole, bold, code, label, href, italic, bare, newline] = match;
    // An italic star inside a word (2*3*4) is not emphasis.
    if (italic !== undefined && /\w/.test(text[index - 1] ?? "")) continue;
    pushText(text.slice(at, index));
    at = index + whole.length;
    if (bold !== undefined) out.push({ kind: "strong", children: parseInline(bold) });
    else if (code !== undefined) out.push({ kind: "code", text: code });
    else if (label !== undefined) {
      const safe = safeHref(href ?? "");
      if (safe) out.push({ kind: "link", href: safe, children: parseInline(label) });
      else pushText(label);
    } else if (italic !== undefined) out.push({ kind: "em", children: parseInline(italic) });
    else if (bare !== undefined) {
      const safe = safeHref(bare);
      if (safe) out.push({ kind: "link", href: safe, children: [{ kind: "text", text: bare }] });
      else pushText(bare);
    } else if (newline !== undefined) out.push({ kind: "break" });
  }
  pushText(text.slice(at));
  return out;
}

/** Parses an answer (complete or still streaming) into blocks. */
export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push({ kind: "paragraph", children: parseInline(paragraph.join("\n")) });
    paragraph = [];
  };
  const endList = () => {
    if (list) blocks.push({ kind: "list", ordered: list.ordered, items: list.items.map(parseInline) });
    list = null;
  };
  for (const line of source.replace(/\r\n?/g, "\n").split("\n")) {
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    const item = bullet ?? numbered;
    if (line.trim() === "") {
      endParagraph();
      endList();
    } else if (item) {
      endParagraph();
      const ordered = numbered !== null;
      if (list && list.ordered !== ordered) endList();
      list ??= { ordered, items: [] };
      list.items.push(item[1] ?? "");
    } else if (list && /^\s+\S/.test(line)) {
      list.items[list.items.length - 1] += `\n${line.trim()}`;
    } else {
      endList();
      const heading = HEADING.exec(line);
      if (heading) {
        endParagraph();
        blocks.push({ kind: "paragraph", children: [{ kind: "strong", children: parseInline(heading[1] ?? "") }] });
      } else paragraph.push(line);
    }
  }
  endParagraph();
  endList();
  return blocks;
}
