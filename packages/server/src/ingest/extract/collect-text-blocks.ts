import { isElement, TEXT_NODE } from "./html-dom.js";
import type { DomElement, DomNode } from "./html-dom.js";
import { collapseSpacesPerLine } from "./normalize-text.js";

/**
 * The readable structure of a DOM subtree. A `line` (list item, table row, definition term or
 * description) is written on its own line; the lines of one list, table or definition list
 * (`group`) form one paragraph.
 */
export type TextBlock =
  | { kind: "heading"; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "line"; text: string; group: number };

/** Headings that open a section; h5/h6 are too minor and read as paragraphs. */
const SECTION_HEADINGS = new Set(["h1", "h2", "h3", "h4"]);
const LINE_ELEMENTS = new Set(["li", "dt", "dd", "tr"]);
const SKIPPED_ELEMENTS = new Set([
  "head", "script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas", "math",
  "video", "audio", "map", "button", "select", "textarea", "input", "img", "picture",
]);
const BLOCK_ELEMENTS = new Set([
  "address", "article", "blockquote", "body", "caption", "center", "details", "dialog", "div", "fieldset",
  "figcaption", "figure", "footer", "form", "h5", "h6", "header", "hgroup", "hr", "html", "legend", "main",
  "menu", "nav", "p", "pre", "section", "summary", "tbody", "tfoot", "thead", "aside",
]);
const CELL_ELEMENTS = new Set(["td", "th"]);
/** Containers whose lines belong together. */
const LINE_GROUP_ELEMENTS = new Set(["ul", "ol", "dl", "table"]);
/** Marks a `<br>` or a preserved line break while inline text is gathered; whitespace in text is not. */
const LINE_BREAK = "\n";

interface ListFrame {
  ordered: boolean;
  nextNumber: number;
}

/** Walks a subtree in document order and returns its text as headings, paragraphs and lines. */
export function collectTextBlocks(root: DomElement): TextBlock[] {
  return new TextBlockCollector().collect(root);
}

class TextBlockCollector {
  private readonly blocks: TextBlock[] = [];
  private pieces: string[] = [];
  /** The marker ("- ", "3. ") still to be written before the text of the current list item. */
  private pendingMarker = "";
  private lineDepth = 0;
  private lineGroupDepth = 0;
  private lineGroup = 0;
  private preformattedDepth = 0;
  private readonly lists: ListFrame[] = [];

  collect(root: DomElement): TextBlock[] {
    this.visitElement(root);
    this.flush();
    return this.blocks;
  }

  private visit(node: DomNode): void {
    if (isElement(node)) {
      this.visitElement(node);
    } else if (node.nodeType === TEXT_NODE) {
      const text = node.textContent ?? "";
      this.pieces.push(this.preformattedDepth > 0 ? text : text.replace(/\s+/g, " "));
    }
  }

  private visitChildren(element: DomElement): void {
    for (const child of element.childNodes) this.visit(child);
  }

  private visitElement(element: DomElement): void {
    const name = element.localName;
    if (SKIPPED_ELEMENTS.has(name)) return;
    if (name === "br") {
      this.pieces.push(LINE_BREAK);
    } else if (SECTION_HEADINGS.has(name)) {
      this.flush();
      this.visitChildren(element);
      this.flush("heading");
    } else if (LINE_ELEMENTS.has(name)) {
      this.visitLine(element);
    } else if (LINE_GROUP_ELEMENTS.has(name)) {
      this.visitLineGroup(element);
    } else if (CELL_ELEMENTS.has(name)) {
      if (this.pieces.join("").trim() !== "") this.pieces.push(" | ");
      this.visitChildren(element);
    } else if (BLOCK_ELEMENTS.has(name)) {
      this.flush();
      if (name === "pre") this.preformattedDepth += 1;
      this.visitChildren(element);
      this.flush();
      if (name === "pre") this.preformattedDepth -= 1;
    } else {
      this.visitChildren(element);
    }
  }

  private visitLineGroup(element: DomElement): void {
    this.flush();
    if (this.lineGroupDepth === 0) this.lineGroup += 1;
    this.lineGroupDepth += 1;
    const isList = element.localName === "ul" || element.localName === "ol";
    if (isList) {
      const start = Number(element.getAttribute("start") ?? "1");
      this.lists.push({ ordered: element.localName === "ol", nextNumber: Number.isInteger(start) ? start : 1 });
    }
    this.visitChildren(element);
    if (isList) this.lists.pop();
    this.flush();
    this.lineGroupDepth -= 1;
  }

  private visitLine(element: DomElement): void {
    this.flush();
    if (element.localName === "li") {
      const list = this.lists.at(-1);
      if (list?.ordered === true) {
        this.pendingMarker = `${list.nextNumber}. `;
        list.nextNumber += 1;
      } else {
        this.pendingMarker = "- ";
      }
    }
    this.lineDepth += 1;
    this.visitChildren(element);
    this.flush();
    this.lineDepth -= 1;
    this.pendingMarker = "";
  }

  /** Turns the gathered inline text into a block; nothing happens when it is only whitespace. */
  private flush(kind?: TextBlock["kind"]): void {
    const raw = this.pieces.join("");
    this.pieces = [];
    const text = kind === "heading" ? collapseSpacesPerLine(raw).replaceAll("\n", " ") : collapseSpacesPerLine(raw);
    if (text === "") return;
    if (kind === "heading") {
      this.blocks.push({ kind, text });
    } else if (this.lineDepth > 0) {
      this.blocks.push({ kind: "line", text: `${this.pendingMarker}${text}`, group: this.lineGroup });
      this.pendingMarker = "";
    } else {
      this.blocks.push({ kind: "paragraph", text });
    }
  }
}
