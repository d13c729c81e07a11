import { Readability } from "@mozilla/readability";
import { assembleSections } from "./assemble-sections.js";
import type { AssembledText } from "./assemble-sections.js";
import { collectTextBlocks } from "./collect-text-blocks.js";
import { demoteTopHeadings } from "./demote-top-headings.js";
import type { ExtractedDocument, ExtractInput } from "./extracted-document.js";
import { parseHtmlDocument } from "./html-dom.js";
import type { DomDocument, DomElement } from "./html-dom.js";
import { findPageLanguage } from "./page-language.js";
import { clampTitle, findPageTitle, titleFromUrl } from "./page-title.js";
import { removeBoilerplate } from "./remove-boilerplate.js";

/**
 * Readability's own bar for a successful parse (its default `charThreshold`). Below it Readability
 * returns its best failed attempt, which on short pages (a few FAQ entries in a grid, a contact page)
 * is often one block without its siblings; the page text is then the better answer.
 */
const MIN_ARTICLE_CHARACTERS = 500;
/** On longer pages the article must still hold this share of the boilerplate-free page text. */
const MIN_ARTICLE_SHARE = 0.4;

interface ReadabilityArticle {
  title: string | undefined;
  content: DomElement | undefined;
}

/**
 * Extracts the readable content of an HTML page. Boilerplate (scripts, navigation, header, footer,
 * sidebars, forms, cookie banners) is removed first; Readability then picks the main content, and
 * the text of `<main>` (or `<body>`) is used instead when Readability finds nothing useful.
 */
export function extractHtml(input: ExtractInput): ExtractedDocument {
  const document = parseHtmlDocument(input.body);
  const language = findPageLanguage(document);
  removeBoilerplate(document);

  const article = readArticle(document);
  const pageText = extractPageText(document);
  const articleText = article?.content === undefined ? undefined : assembleSections(collectTextBlocks(article.content));
  const chosen = articleText !== undefined && isUseful(articleText, pageText) ? articleText : pageText;

  const title = findPageTitle(document, article?.title, input.url) ?? (clampTitle(input.title ?? "") || titleFromUrl(input.url));
  return {
    title,
    text: chosen.text,
    sections: chosen.sections,
    ...(language === undefined ? {} : { language }),
  };
}

/** Runs Readability on a copy (it rewrites the tree it reads). Undefined when it gives up or fails. */
function readArticle(document: DomDocument): ReadabilityArticle | undefined {
  try {
    const copy = document.cloneNode(true);
    demoteTopHeadings(copy);
    const reader = new Readability<DomElement>(copy, { serializer: (node: DomElement) => node });
    const article = reader.parse();
    if (article === null) return undefined;
    return { title: article.title ?? undefined, content: article.content ?? undefined };
  } catch {
    return undefined;
  }
}

/** The text of the single `<main>` landmark when there is one with text, else of the whole body. */
function extractPageText(document: DomDocument): AssembledText {
  const landmarks = [...document.querySelectorAll('main, [role="main"]')];
  const main = landmarks.length === 1 ? landmarks[0] : undefined;
  if (main !== undefined) {
    const mainText = assembleSections(collectTextBlocks(main));
    if (mainText.text !== "") return mainText;
  }
  const body = document.body;
  return body === null ? { text: "", sections: [] } : assembleSections(collectTextBlocks(body));
}

function isUseful(article: AssembledText, page: AssembledText): boolean {
  return article.text.length >= MIN_ARTICLE_CHARACTERS && article.text.length >= MIN_ARTICLE_SHARE * page.text.length;
}
