import type { DomDocument, DomElement } from "./html-dom.js";

/** Never content: code, media, embedded documents, form controls. */
const NEVER_CONTENT = new Set([
  "script", "style", "noscript", "template", "iframe", "frame", "object", "embed", "svg", "canvas", "math",
  "video", "audio", "map", "button", "select", "textarea", "input", "link", "meta",
]);
/** Site chrome by element name. */
const CHROME_ELEMENTS = new Set(["nav", "aside", "form"]);
const PAGE_HEADER_FOOTER_ELEMENTS = new Set(["header", "footer"]);
const OVERLAY_ELEMENTS = new Set(["dialog"]);

const CHROME_ROLES = new Set(["navigation", "complementary", "search", "menu", "menubar", "toolbar"]);
const PAGE_HEADER_FOOTER_ROLES = new Set(["banner", "contentinfo"]);
const OVERLAY_ROLES = new Set(["dialog", "alertdialog"]);

/** Whole class or id tokens that name navigation, sidebars and similar chrome. */
const CHROME_TOKEN = new RegExp(
  [
    "^(?:(?:site|page|global|main|top|primary|mobile|mega)[-_]?)?(?:nav|navbar|navigation|sidebar|breadcrumbs?|masthead|topbar|toolbar)$",
    "^(?:site|page|global|main|top|primary|mobile|mega|nav)[-_]?menu$",
    "^skip[-_]?(?:link|links|to[-_]?content)$",
    "^(?:social|share)[-_]?(?:links|icons|buttons|bar|share)$",
    "^back[-_]?to[-_]?top$",
  ].join("|"),
);
const PAGE_HEADER_FOOTER_TOKEN = /^(?:(?:site|page|global|main|top)[-_]?)?(?:header|footer)$/;
/** Cookie and consent banners: substrings of ids, classes and labels used by common consent tools. */
const CONSENT_PATTERN =
  /cookie|consent|gdpr|ccpa|onetrust|cookiebot|didomi|usercentrics|truste|qc-cmp|cmp-container|cc-window|cc-banner/;

const MAIN_CONTENT = 'main, article, [role="main"]';
/** Consent banners say a few sentences; an element named "cookie…" with more text than this is content. */
const MAX_BANNER_CHARACTERS = 2000;

type Verdict = "keep" | "remove";

/**
 * Removes what is not the page's own content, in place: scripts and styles, forms, navigation,
 * sidebars, the page header and footer, dialogs and cookie/consent banners.
 * An element that wraps the main content (`<main>`, `<article>`, `role="main"`; for banners and forms
 * also a top heading) is kept whatever its name says, so a page wrapped in one `<form>` (ASP.NET)
 * or a cookie-policy page keeps its text; so is an element only named like a consent banner
 * (not a dialog) that holds far more text than a banner. A `<header>`/`<footer>` inside the main content is the
 * article's own and is kept.
 */
export function removeBoilerplate(document: DomDocument): void {
  const body = document.body;
  if (body === null) return;
  const doomed = [...body.querySelectorAll("*")].filter((element) => judge(element) === "remove");
  for (const element of doomed) element.remove();
}

function judge(element: DomElement): Verdict {
  const name = element.localName;
  if (NEVER_CONTENT.has(name)) return "remove";

  const role = (element.getAttribute("role") ?? "").trim().toLowerCase();
  const tokens = classAndIdTokens(element);

  const isOverlay = OVERLAY_ELEMENTS.has(name) || OVERLAY_ROLES.has(role) || element.getAttribute("aria-modal") === "true";
  if (isOverlay || CONSENT_PATTERN.test(labelText(element, tokens))) {
    if (wrapsContent(element, `${MAIN_CONTENT}, h1`)) return "keep";
    // A page wrapper carrying a state class ("cookies-accepted") is far longer than any banner.
    if (!isOverlay && (element.textContent ?? "").length > MAX_BANNER_CHARACTERS) return "keep";
    return "remove";
  }
  if (name === "form") {
    return wrapsContent(element, `${MAIN_CONTENT}, h1, h2`) ? "keep" : "remove";
  }
  if (CHROME_ELEMENTS.has(name) || CHROME_ROLES.has(role) || tokens.some((token) => CHROME_TOKEN.test(token))) {
    return wrapsContent(element, MAIN_CONTENT) ? "keep" : "remove";
  }
  if (
    PAGE_HEADER_FOOTER_ELEMENTS.has(name) ||
    PAGE_HEADER_FOOTER_ROLES.has(role) ||
    tokens.some((token) => PAGE_HEADER_FOOTER_TOKEN.test(token))
  ) {
    const insideContent = element.parentElement?.closest(MAIN_CONTENT) ?? null;
    return insideContent !== null || wrapsContent(element, MAIN_CONTENT) ? "keep" : "remove";
  }
  return "keep";
}

function wrapsContent(element: DomElement, selectors: string): boolean {
  return element.querySelector(selectors) !== null;
}

function classAndIdTokens(element: DomElement): string[] {
  const text = `${element.getAttribute("id") ?? ""} ${element.getAttribute("class") ?? ""}`.toLowerCase();
  return text.split(/\s+/).filter((token) => token !== "");
}

function labelText(element: DomElement, tokens: string[]): string {
  return `${tokens.join(" ")} ${element.getAttribute("aria-label") ?? ""}`.toLowerCase();
}
