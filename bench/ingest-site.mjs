// The loopback website `bench/ingest.mjs` crawls: BENCH_PAGES pages of 400–800 words of distinct
// prose each, wrapped in the boilerplate real sites carry (navigation, a cookie banner, a footer),
// plus robots.txt and a sitemap.xml listing every page: one `urlset` up to 50,000 pages (the
// protocol's cap per file), else a `sitemapindex` of files of 50,000 pages each, as real sites do.
// Pages are rendered when asked for (about 0.1 ms each, next to the service's milliseconds a page),
// so a 100,000-page site does not hold 700 MB of HTML in the bench process.
import { createServer } from "node:http";

/** Deterministic pseudo-random numbers (mulberry32), so every run crawls the same site. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random, list) => list[Math.floor(random() * list.length)];

const PRODUCTS = ["router", "thermostat", "espresso machine", "standing desk", "backpack", "e-bike", "air purifier", "tent", "monitor", "headset", "kettle", "drill", "mattress", "camera", "printer", "blender"];
const ADJECTIVES = ["compact", "quiet", "durable", "lightweight", "modular", "waterproof", "refurbished", "wireless", "adjustable", "energy-efficient", "foldable", "professional", "entry-level", "insulated", "rechargeable", "stainless"];
const TOPICS = ["shipping", "returns", "warranty", "installation", "maintenance", "billing", "accounts", "privacy", "troubleshooting", "compatibility", "subscriptions", "gift cards", "store pickup", "recycling", "spare parts", "safety"];
const CITIES = ["Lisbon", "Oslo", "Denver", "Osaka", "Nairobi", "Toronto", "Lyon", "Melbourne", "Austin", "Gdansk", "Porto", "Dublin", "Seville", "Utrecht", "Leeds", "Bergen"];
const VERBS = ["ships", "covers", "includes", "requires", "supports", "replaces", "protects", "extends", "reduces", "improves", "connects to", "works with"];
const NOUNS = ["the base unit", "the charging dock", "the filter cartridge", "the mounting kit", "the power adapter", "the carrying case", "the control app", "the spare battery", "the cleaning kit", "the wall bracket", "the firmware", "the user manual"];
const TIMES = ["within two business days", "in five to seven days", "before the end of the month", "on the next working day", "within 48 hours", "after the order is confirmed", "once the parcel is scanned", "during the first year"];
const CLAUSES = [
  "customers who order before noon usually receive a tracking number the same afternoon",
  "the support team answers e-mails in the order they arrive, weekends included",
  "a receipt or order number is enough to start a claim, no original packaging needed",
  "prices shown include value-added tax for deliveries inside the European Union",
  "members of the loyalty programme collect one point for every euro they spend",
  "the technician calls thirty minutes before arriving so someone can be at home",
  "refunds go back to the original payment method and appear within ten days",
  "accessories bought separately keep their own warranty period",
  "orders above fifty euros travel free of charge to most addresses",
  "a damaged parcel should be photographed before it is opened",
  "opening hours change on public holidays and are announced a week ahead",
  "replacement parts for older models stay available for at least seven years",
];

function sentence(random, page) {
  const product = `${pick(random, ADJECTIVES)} ${page.product}`;
  switch (Math.floor(random() * 6)) {
    case 0:
      return `The ${product} ${pick(random, VERBS)} ${pick(random, NOUNS)}, and ${pick(random, CLAUSES)}.`;
    case 1:
      return `For ${page.topic} questions in ${pick(random, CITIES)}, ${pick(random, CLAUSES)}.`;
    case 2:
      return `Model ${page.model}-${Math.floor(random() * 900 + 100)} ${pick(random, VERBS)} ${pick(random, NOUNS)} ${pick(random, TIMES)}.`;
    case 3:
      return `When ${pick(random, NOUNS)} stops working, ${pick(random, CLAUSES)}; most cases are settled ${pick(random, TIMES)}.`;
    case 4:
      return `Our ${pick(random, CITIES)} store keeps ${Math.floor(random() * 40 + 2)} units of the ${product} and ${pick(random, VERBS)} ${pick(random, NOUNS)} on request.`;
    default:
      return `Reference ${page.slug.toUpperCase()}-${Math.floor(random() * 10_000)}: ${pick(random, CLAUSES)}.`;
  }
}

function paragraph(random, page, sentences) {
  return Array.from({ length: sentences }, () => sentence(random, page)).join(" ");
}

const countWords = (text) => text.split(/\s+/).filter(Boolean).length;
const escapeHtml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function navigation() {
  const links = ["Home", "Shop", "Deals", "Support", "Stores", "Blog", "About us", "Careers", "Contact", "Account", "Cart"];
  return `<header class="site-header"><a class="logo" href="/">Bench Outfitters</a>
<nav aria-label="Main"><ul>${links.map((label) => `<li><a href="/${label.toLowerCase().replace(/\s+/g, "-")}">${label}</a></li>`).join("")}</ul></nav>
<form class="search" action="/search"><input name="q" placeholder="Search the store"><button>Search</button></form></header>`;
}

function cookieBanner() {
  return `<div class="cookie-banner" role="dialog" aria-label="Cookies"><p>We use cookies to remember your cart, to measure
how the site is used and to show you relevant offers. You can accept all cookies, refuse the optional ones or choose
per purpose in the settings.</p><button>Accept all</button><button>Refuse optional</button><a href="/cookies">Settings</a></div>`;
}

function footer() {
  const columns = {
    Help: ["Order status", "Shipping", "Returns", "Warranty", "FAQ"],
    Company: ["About us", "Press", "Careers", "Sustainability"],
    Legal: ["Terms", "Privacy", "Cookies", "Imprint"],
  };
  return `<footer class="site-footer">${Object.entries(columns)
    .map(([title, items]) => `<section><h4>${title}</h4><ul>${items.map((item) => `<li><a href="/${item.toLowerCase().replace(/\s+/g, "-")}">${item}</a></li>`).join("")}</ul></section>`)
    .join("")}
<p>© 2026 Bench Outfitters Ltd. All rights reserved. Registered office: 1 Loopback Lane, 127.0.0.1.</p>
<p>Subscribe to our newsletter for offers and news. <a href="/newsletter">Sign up</a></p></footer>`;
}

/** One page: its path, its HTML and the number of words of its own (non-boilerplate) content. */
export function renderPage(index) {
  const random = seededRandom(0x5eed + index * 7919);
  const page = {
    product: PRODUCTS[index % PRODUCTS.length],
    topic: TOPICS[Math.floor(index / PRODUCTS.length) % TOPICS.length],
    model: `BX${(index * 37) % 1000}`,
    slug: pagePath(index).slice("/guides/".length),
  };
  const targetWords = 430 + Math.floor(random() * 271);
  const title = `${page.topic[0].toUpperCase()}${page.topic.slice(1)} for the ${page.product} (${page.model}) — guide ${index + 1}`;
  const sections = [];
  let words = countWords(title);
  while (words < targetWords) {
    const heading = `${pick(random, ["How", "When", "Why", "Where"])} ${pick(random, ["the", "our"])} ${page.topic} ${pick(random, ["works", "applies", "changes", "starts"])} ${pick(random, ["at home", "in store", "online", "abroad", "for businesses"])}`;
    const blocks = [`<h2>${escapeHtml(heading)}</h2>`];
    words += countWords(heading);
    for (let p = 0; p < 2 && words < targetWords; p += 1) {
      const text = paragraph(random, page, 2 + Math.floor(random() * 3));
      words += countWords(text);
      blocks.push(`<p>${escapeHtml(text)}</p>`);
    }
    if (random() < 0.4 && words < targetWords) {
      const items = Array.from({ length: 3 }, () => sentence(random, page));
      words += items.reduce((total, item) => total + countWords(item), 0);
      blocks.push(`<ul>${items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`);
    }
    sections.push(`<section>${blocks.join("\n")}</section>`);
  }
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} | Bench Outfitters</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="${escapeHtml(title)}">
<link rel="stylesheet" href="/assets/site.css"><script src="/assets/analytics.js" defer></script></head>
<body>${cookieBanner()}
${navigation()}
<nav class="breadcrumbs"><a href="/">Home</a> › <a href="/support">Support</a> › ${escapeHtml(page.topic)}</nav>
<main><article><h1>${escapeHtml(title)}</h1>
${sections.join("\n")}
</article>
<aside class="related"><h3>Related guides</h3><ul><li><a href="/guides/${page.slug}-a">Popular questions</a></li><li><a href="/guides/${page.slug}-b">Compare models</a></li></ul></aside></main>
${footer()}
<script>window.dataLayer = window.dataLayer || []; window.dataLayer.push({ page: "${page.slug}" });</script>
</body></html>`;
  return { path: pagePath(index), html, words };
}

/** A distinct plain-text document of roughly 250 words, as a CMS would push it. */
export function renderText(index, runId) {
  const random = seededRandom(0x7e47 + index * 104729);
  const page = { product: pick(random, PRODUCTS), topic: pick(random, TOPICS), model: `TX${index}`, slug: `text-${runId}-${index}` };
  const paragraphs = Array.from({ length: 4 }, () => paragraph(random, page, 3));
  return {
    title: `Note ${index + 1} on ${page.topic} (${runId})`,
    content: `Notice ${runId}-${index}: ${page.topic} for the ${page.product}.\n\n${paragraphs.join("\n\n")}`,
  };
}

/** Entries per sitemap file: the protocol's cap. */
export const SITEMAP_FILE_ENTRIES = 50_000;

const pagePath = (index) => `/guides/page-${String(index + 1).padStart(4, "0")}`;

/** Words of the pages' own content, from every page up to 2,000 and an even sample beyond. */
function wordStats(pageCount) {
  const step = Math.max(1, Math.floor(pageCount / 2000));
  let total = 0;
  let count = 0;
  let min = Infinity;
  let max = 0;
  for (let index = 0; index < pageCount; index += step) {
    const { words } = renderPage(index);
    total += words;
    count += 1;
    min = Math.min(min, words);
    max = Math.max(max, words);
  }
  return { mean: Math.round(total / count), min, max, sampled: count };
}

function urlset(origin, from, to) {
  const entries = [];
  for (let index = from; index < to; index += 1) entries.push(`  <url><loc>${origin}${pagePath(index)}</loc><lastmod>2026-11-01</lastmod></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join("\n")}\n</urlset>\n`;
}

/**
 * Serves the site on 127.0.0.1 (a free port). `stats` counts what the crawler asked for, so the
 * bench can tell pages fetched once from pages fetched again (retries). `fileEntries` lowers the
 * entries per sitemap file (to try the index on a small site).
 */
export async function startSite(pageCount, { fileEntries = SITEMAP_FILE_ENTRIES } = {}) {
  const words = wordStats(pageCount);
  const stats = { pageRequests: 0, robotsRequests: 0, sitemapRequests: 0, notFound: 0 };
  let origin = "";
  /** Sitemap files by path: /sitemap.xml, and /sitemap-N.xml when it is an index. */
  const sitemaps = new Map();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://site.invalid").pathname;
    if (path === "/robots.txt") {
      stats.robotsRequests += 1;
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      response.end(`User-agent: *\nDisallow: /cart\nDisallow: /account\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`);
      return;
    }
    const sitemap = sitemaps.get(path);
    if (sitemap !== undefined) {
      stats.sitemapRequests += 1;
      response.writeHead(200, { "content-type": "application/xml; charset=utf-8", "content-length": sitemap.length });
      response.end(sitemap);
      return;
    }
    const match = /^\/guides\/page-(\d+)$/.exec(path);
    const index = match ? Number(match[1]) - 1 : -1;
    if (index < 0 || index >= pageCount || pagePath(index) !== path) {
      stats.notFound += 1;
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not found");
      return;
    }
    stats.pageRequests += 1;
    const body = Buffer.from(renderPage(index).html, "utf8");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length, "cache-control": "max-age=300" });
    response.end(body);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  origin = `http://127.0.0.1:${server.address().port}`;
  if (pageCount <= fileEntries) {
    sitemaps.set("/sitemap.xml", Buffer.from(urlset(origin, 0, pageCount), "utf8"));
  } else {
    const files = [];
    for (let from = 0; from < pageCount; from += fileEntries) {
      const path = `/sitemap-${files.length + 1}.xml`;
      sitemaps.set(path, Buffer.from(urlset(origin, from, Math.min(pageCount, from + fileEntries)), "utf8"));
      files.push(`  <sitemap><loc>${origin}${path}</loc><lastmod>2026-11-01</lastmod></sitemap>`);
    }
    sitemaps.set(
      "/sitemap.xml",
      Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${files.join("\n")}\n</sitemapindex>\n`, "utf8"),
    );
  }
  return {
    origin,
    sitemapUrl: `${origin}/sitemap.xml`,
    /** Sitemap files: 1 for a `urlset`, 1 + its files for an index. */
    sitemapFiles: sitemaps.size,
    stats,
    words,
    resetStats() {
      for (const key of Object.keys(stats)) stats[key] = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
