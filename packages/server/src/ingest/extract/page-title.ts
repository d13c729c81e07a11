import type { DomDocument } from "./html-dom.js";
import { collapseSpaces } from "./normalize-text.js";

/** Titles are labels in citations and prompts; anything longer is cut. */
export const MAX_TITLE_LENGTH = 200;

/**
 * The first usable title among: the one Readability found, `og:title`, `<title>`, the first `<h1>`.
 * Returns undefined when the page names itself nowhere.
 */
export function findPageTitle(document: DomDocument, readabilityTitle: string | null | undefined): string | undefined {
  const candidates = [
    () => readabilityTitle,
    () => document.querySelector('meta[property="og:title"], meta[name="og:title"]')?.getAttribute("content"),
    () => document.querySelector("title")?.textContent,
    () => document.querySelector("h1")?.textContent,
  ];
  for (const candidate of candidates) {
    const title = clampTitle(candidate() ?? "");
    if (title !== "") return title;
  }
  return undefined;
}

/** Collapses whitespace and cuts to {@link MAX_TITLE_LENGTH} characters (whole code points). */
export function clampTitle(text: string): string {
  const title = collapseSpaces(text);
  const codePoints = Array.from(title);
  return codePoints.length <= MAX_TITLE_LENGTH ? title : codePoints.slice(0, MAX_TITLE_LENGTH).join("").trimEnd();
}

/** A last-resort title: the last path segment made readable (`/help/getting-started.html` → `getting started`), else the host. */
export function titleFromUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return clampTitle(url);
  }
  const segment = parsed.pathname.split("/").filter((part) => part !== "").at(-1);
  if (segment !== undefined) {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // a malformed escape: keep the raw segment
    }
    const readable = clampTitle(decoded.replace(/\.[a-z0-9]{1,5}$/i, "").replace(/[-_+]+/g, " "));
    if (readable !== "") return readable;
  }
  return clampTitle(parsed.hostname);
}
