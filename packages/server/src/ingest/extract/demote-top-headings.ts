import type { DomDocument } from "./html-dom.js";

/**
 * Renames every `<h1>` and `<h2>` to `<h3>`, keeping attributes and children.
 * Readability drops the first h1/h2 that resembles the title (a section called "Returns" on a page
 * titled "Shipping & Returns" goes) and any h1/h2 whose class looks negative ("contact-title").
 * It leaves h3–h6 alone, and the extractor only needs to know that a heading opens a section,
 * not its level, so the rename loses nothing. Run it on Readability's copy of the document.
 */
export function demoteTopHeadings(document: DomDocument): void {
  for (const heading of [...document.querySelectorAll("h1, h2")]) {
    const replacement = document.createElement("h3", undefined);
    for (const attribute of heading.attributes) replacement.setAttribute(attribute.name, attribute.value);
    for (let child = heading.firstChild; child !== null; child = heading.firstChild) replacement.appendChild(child);
    heading.replaceWith(replacement);
  }
}
