#!/usr/bin/env node
// Builds eval/govuk/{pages,questions,unanswerable}.json from ConditionalQA v1.0 (train.json, dev.json,
// test_no_answer.json of https://github.com/haitian-sun/ConditionalQA, commit 77bd295), given the
// folder holding them: node eval/govuk/build-fixtures.mjs /path/to/ConditionalQA/v1_0
// Deterministic: the same input files give the same fixtures. See eval/govuk/README.md.
import { readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const from = process.argv[2];
if (!from) {
  console.error("usage: build-fixtures.mjs <ConditionalQA v1_0 folder>");
  process.exit(1);
}
const here = dirname(fileURLToPath(import.meta.url));
const read = (name) => JSON.parse(readFileSync(join(from, name), "utf8"));
const train = read("train.json");
const dev = read("dev.json");
const test = read("test_no_answer.json");

const slugOf = (url) => new URL(url).pathname.replace(/^\//, "").replace(/\//g, "-");
const titleOf = (slug) => {
  const words = slug.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

// Every evidence element (<p>, <li>, <tr>, <h2>, <h3>) quoted by a train or dev question, per page,
// in the order first quoted: what survives of each gov.uk page.
const evidence = new Map();
for (const item of [...train, ...dev]) {
  if (!evidence.has(item.url)) evidence.set(item.url, []);
  const list = evidence.get(item.url);
  for (const element of item.evidences) if (!list.includes(element)) list.push(element);
}

// The pages the dev questions ask about, and as many other pages again (every k-th by URL) as distractors.
const devUrls = [...new Set(dev.map((item) => item.url))].sort();
const others = [...evidence.keys()].filter((url) => !devUrls.includes(url)).sort();
const step = Math.max(1, Math.floor(others.length / 61));
const distractors = others.filter((_, index) => index % step === 0).slice(0, 61);
const urls = [...devUrls, ...distractors].sort();

/** Consecutive <li> elements go in one <ul>, consecutive <tr> in one <table>. */
function bodyOf(elements) {
  const out = [];
  let open = null;
  for (const element of elements) {
    const tag = element.match(/^<(\w+)/)?.[1] ?? "p";
    const wrapper = tag === "li" ? "ul" : tag === "tr" ? "table" : null;
    if (open !== wrapper) {
      if (open) out.push(`</${open}>`);
      if (wrapper) out.push(`<${wrapper}>`);
      open = wrapper;
    }
    out.push(element);
  }
  if (open) out.push(`</${open}>`);
  return out.join("\n");
}

const pages = urls.map((url) => {
  const slug = slugOf(url);
  const title = titleOf(slug);
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} - GOV.UK</title></head><body><main><article><h1>${title}</h1>\n${bodyOf(evidence.get(url))}\n</article></main></body></html>`;
  return { slug, url, html };
});

const message = (item) => `${item.scenario.trim()} ${item.question.trim()}`;
const questions = dev
  .filter((item) => !item.not_answerable)
  .map((item, index) => ({ id: `g${String(index + 1).padStart(3, "0")}`, question: message(item), expected: slugOf(item.url) }));

// Out of scope: one question for each of 60 pages that are not in the corpus (test pages are in neither train nor dev).
const seen = new Set();
const unanswerable = [];
for (const item of [...test].sort((a, b) => a.url.localeCompare(b.url) || a.id.localeCompare(b.id))) {
  if (seen.has(item.url) || urls.includes(item.url)) continue;
  seen.add(item.url);
  unanswerable.push({ id: `v${String(unanswerable.length + 1).padStart(3, "0")}`, question: message(item), page: slugOf(item.url) });
  if (unanswerable.length === 60) break;
}

writeFileSync(join(here, "pages.json"), `${JSON.stringify(pages, null, 1)}\n`);
writeFileSync(join(here, "questions.json"), `${JSON.stringify(questions, null, 1)}\n`);
writeFileSync(join(here, "unanswerable.json"), `${JSON.stringify(unanswerable, null, 1)}\n`);
console.log(`${pages.length} pages, ${questions.length} answerable, ${unanswerable.length} unanswerable`);
