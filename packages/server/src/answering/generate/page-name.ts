import { hostNameKeys, nameKey, titlePartsOf, type TitlePart } from "../../language/title-parts.js";

/** A retrieved page as a reply names it. */
export interface NamedPage {
  documentId: number;
  title: string;
  url: string;
}

/** The host's names (language/title-parts.ts), none for an address that cannot be read. */
function hostKeys(url: string): Set<string> {
  try {
    return new Set(hostNameKeys(new URL(url).hostname));
  } catch {
    return new Set();
  }
}

/**
 * How a reply names a page: its title without the site's name, as most sites write titles
 * ("Returns | Acme Cycles" is the "Returns" page). Indexing already drops a site's name it can
 * tell (`ingest/extract/page-title.ts`); this catches what it could not, or what was indexed
 * before it did: a first or last part of the title that names the page's host, or that the other
 * retrieved pages' titles end (or begin) with too (their common suffix is the site's name). A title
 * that is nothing but the site's name stays; a page without a title has no name (null).
 */
export function pageName(page: NamedPage, retrieved: readonly NamedPage[]): string | null {
  const title = page.title.trim();
  if (title === "") return null;
  const parts = titlePartsOf(title);
  if (parts.length < 2) return title;
  const host = hostKeys(page.url);
  const others = [...new Map(retrieved.filter((other) => other.documentId !== page.documentId).map((other) => [other.documentId, titlePartsOf(other.title.trim())])).values()];
  const endsOther = (part: TitlePart) => others.some((other) => other.length > 1 && nameKey(other.at(-1)?.text ?? "") === nameKey(part.text));
  const startsOther = (part: TitlePart) => others.some((other) => other.length > 1 && nameKey(other[0]?.text ?? "") === nameKey(part.text));
  const namesHost = (part: TitlePart) => host.has(nameKey(part.text));
  let kept = parts;
  while (kept.length > 1 && (namesHost(kept.at(-1)!) || endsOther(kept.at(-1)!))) kept = kept.slice(0, -1);
  while (kept.length > 1 && (namesHost(kept[0]!) || startsOther(kept[0]!))) kept = kept.slice(1);
  return title.slice(kept[0]!.start, kept.at(-1)!.end);
}
