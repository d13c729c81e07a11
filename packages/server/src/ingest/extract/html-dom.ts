import { DOMParser } from "linkedom";

/**
 * The slice of the DOM the extractor uses. The server compiles without the DOM library, so
 * linkedom's declarations resolve to `any`; naming what we rely on keeps our code type-checked.
 */
export interface DomNode {
  readonly nodeType: number;
  readonly textContent: string | null;
  readonly childNodes: Iterable<DomNode>;
}

export interface DomElement extends DomNode {
  readonly localName: string;
  readonly outerHTML: string;
  readonly children: Iterable<DomElement>;
  readonly parentElement: DomElement | null;
  readonly attributes: Iterable<{ readonly name: string; readonly value: string }>;
  readonly firstChild: DomNode | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): Iterable<DomElement>;
  closest(selectors: string): DomElement | null;
  appendChild(node: DomNode): void;
  replaceWith(node: DomNode): void;
  remove(): void;
}

export interface DomDocument {
  readonly documentElement: DomElement | null;
  readonly head: DomElement | null;
  readonly body: DomElement | null;
  readonly childNodes: Iterable<DomNode>;
  querySelector(selectors: string): DomElement | null;
  querySelectorAll(selectors: string): Iterable<DomElement>;
  cloneNode(deep: boolean): DomDocument;
  /** linkedom declares the options parameter as required; pass `undefined`. */
  createElement(localName: string, options: undefined): DomElement;
}

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;

const HEAD_ELEMENTS = new Set(["title", "meta", "link", "base"]);

/** Narrows a node to an element. */
export function isElement(node: DomNode): node is DomElement {
  return node.nodeType === ELEMENT_NODE;
}

/**
 * Parses HTML into a document that always has `<html>`, `<head>` and `<body>`.
 * linkedom does not synthesise the implied elements of a fragment or of a page that leaves out
 * `<html>`/`<body>` (both valid HTML), so such input is re-serialised into the standard shape.
 */
export function parseHtmlDocument(html: string): DomDocument {
  const parsed = parseWithLinkedom(html);
  if (hasStandardShape(parsed)) return parsed;
  return parseWithLinkedom(rebuildStandardShape(parsed));
}

function parseWithLinkedom(html: string): DomDocument {
  const document: DomDocument = new DOMParser().parseFromString(html, "text/html");
  return document;
}

function hasStandardShape(document: DomDocument): boolean {
  const topElements = [...document.childNodes].filter(isElement);
  const root = document.documentElement;
  if (topElements.length !== 1 || root === null || root.localName !== "html") return false;
  const names = [...root.children].map((child) => child.localName);
  return names.length === 2 && names[0] === "head" && names[1] === "body";
}

function rebuildStandardShape(document: DomDocument): string {
  const head: string[] = [];
  const body: string[] = [];
  distribute(document.childNodes, head, body);
  const language = document.documentElement?.getAttribute("lang");
  const languageAttribute = language ? ` lang="${escapeHtml(language)}"` : "";
  return `<!DOCTYPE html><html${languageAttribute}><head>${head.join("")}</head><body>${body.join("")}</body></html>`;
}

function distribute(nodes: Iterable<DomNode>, head: string[], body: string[]): void {
  for (const node of nodes) {
    if (isElement(node)) {
      if (node.localName === "html" || node.localName === "head" || node.localName === "body") {
        distribute(node.childNodes, head, body);
      } else if (HEAD_ELEMENTS.has(node.localName)) {
        head.push(node.outerHTML);
      } else {
        body.push(node.outerHTML);
      }
    } else if (node.nodeType === TEXT_NODE) {
      body.push(escapeHtml(node.textContent ?? ""));
    }
  }
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}
