import type { DomDocument } from "./html-dom.js";
import { collapseSpaces } from "./normalize-text.js";
import { hostNameKeys, nameKey, titlePartsOf, type TitlePart } from "../../language/title-parts.js";

/** Titles are labels in citations and prompts; anything longer is cut. */
export const MAX_TITLE_LENGTH = 200;

/**
 * The page's title: the first usable one among `og:title`, `<title>` and the first `<h1>`, without
 * the site's name (`withoutSiteName`), since a citation in the site's own widget names the page.
 * Readability's title is taken instead when it is shorter and made of whole parts of that one: it
 * drops a site's name by counting words, and can cut inside a hyphenated word ("E-bike rules - in
 * brief" gives "bike rules - in brief"). Returns undefined when the page names itself nowhere.
 */
export function findPageTitle(document: DomDocument, readabilityTitle: string | null | undefined, url: string): string | undefined {
  const heading = document.querySelector("h1")?.textContent ?? undefined;
  const written = [
    () => document.querySelector('meta[property="og:title"], meta[name="og:title"]')?.getAttribute("content"),
    () => document.querySelector("title")?.textContent,
    () => heading,
  ]
    .map((candidate) => clampTitle(candidate() ?? ""))
    .find((title) => title !== "");
  const readability = clampTitle(readabilityTitle ?? "");
  if (written === undefined) return readability === "" ? undefined : readability;
  const title = withoutSiteName(written, { heading, siteKeys: siteKeysOf(document, url) });
  return readability !== "" && readability.length < title.length && isWholeParts(written, readability) ? readability : title;
}

/**
 * What names the site: `og:site_name` and `application-name`, and the page's and its canonical
 * address's host names read from their first label on ("www.acmecycles.co.uk" gives
 * "acmecycles", "acmecyclesco" and "acmecyclescouk"; "www.gov.uk" gives "gov" and "govuk").
 */
function siteKeysOf(document: DomDocument, url: string): Set<string> {
  const keys = new Set<string>();
  for (const meta of ['meta[property="og:site_name"]', 'meta[name="application-name"]']) {
    const key = nameKey(document.querySelector(meta)?.getAttribute("content") ?? "");
    if (key !== "") keys.add(key);
  }
  for (const address of [url, document.querySelector('link[rel="canonical"]')?.getAttribute("href")]) {
    let host: string;
    try {
      host = new URL(address ?? "", url).hostname;
    } catch {
      continue;
    }
    for (const key of hostNameKeys(host)) keys.add(key);
  }
  return keys;
}

/**
 * A title without the site's name: "Click & Collect | Acme Cycles" on acmecycles.example,
 * or "Returns | Help centre" under an `<h1>` "Returns", is the page's own name. The page's name is
 * the first part when the `<h1>` says the same; otherwise a first or last part that names the
 * site (`siteKeysOf`) is dropped, as often as one does. A title that is only the site's name stays.
 */
function withoutSiteName(title: string, site: { heading: string | undefined; siteKeys: ReadonlySet<string> }): string {
  const parts = titlePartsOf(title);
  if (parts.length < 2) return title;
  const first = nameKey(parts[0]!.text);
  if (site.heading !== undefined && first !== "" && first === nameKey(site.heading)) return parts[0]!.text;
  const namesSite = (part: TitlePart) => site.siteKeys.has(nameKey(part.text));
  let kept = parts;
  while (kept.length > 1 && (namesSite(kept.at(-1)!) || namesSite(kept[0]!))) kept = namesSite(kept.at(-1)!) ? kept.slice(0, -1) : kept.slice(1);
  return title.slice(kept[0]!.start, kept.at(-1)!.end);
}

/** Whether `candidate` is one or more neighbouring parts of `title`, as written. */
function isWholeParts(title: string, candidate: string): boolean {
  const parts = titlePartsOf(title);
  return parts.some((first, i) => parts.slice(i).some((last) => title.slice(first.start, last.end) === candidate));
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
