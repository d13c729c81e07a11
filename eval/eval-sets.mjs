// The two evaluation sets (eval/fixtures: Northwind Bikes; eval/govuk: gov.uk pages with
// ConditionalQA's questions), each with its own near-miss out-of-scope questions and 40 far ones
// taken from the other set; the built service's modules, and indexing a set's pages through them.
// Shared by run-eval.mjs and confidence-study.mjs.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository's root. */
export const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, "packages/server/dist");

/** A module of the built service (packages/server/dist); exits with a hint when the service is not built. */
export function loadBuilt(path) {
  if (!existsSync(join(dist, "app.js"))) {
    console.error("Build first: npm run build");
    process.exit(1);
  }
  return import(pathToFileURL(join(dist, path)).href);
}

const { findDocument, upsertDocuments } = await loadBuilt("ingest/document-repository.js");
const { indexDocumentContent } = await loadBuilt("ingest/index-document.js");
const { insertSourceUnlessDuplicate } = await loadBuilt("sources/source-repository.js");
const { describeUrlSource } = await loadBuilt("sources/create-source.js");

/** Indexes each page as a url source of the agent, through the real extraction, chunking and embedder. */
export async function indexPages(db, pipeline, agent, pages) {
  for (const page of pages) {
    const source = await insertSourceUnlessDuplicate(db, describeUrlSource({ workspaceId: agent.workspaceId, agentId: agent.id, kind: "url", url: page.url, schedule: "off", now: new Date() }));
    const [documentId] = await upsertDocuments(db, source, [page.url]);
    await indexDocumentContent(db, pipeline, await findDocument(db, documentId), { body: page.html, contentType: "text/html", url: page.url });
  }
}

/** Pages, answerable and out-of-scope questions (`kind` near or far) of both sets. */
export async function loadSets(root) {
  const fixtures = join(root, "eval/fixtures");
  const files = (await readdir(join(fixtures, "site"))).filter((file) => file.endsWith(".html")).sort();
  const northwindPages = await Promise.all(
    files.map(async (file) => {
      const slug = file.replace(/\.html$/, "");
      return { slug, url: `https://www.northwindbikes.co.uk/${slug}`, html: await readFile(join(fixtures, "site", file), "utf8") };
    }),
  );
  const json = async (path) => JSON.parse(await readFile(join(root, path), "utf8"));
  const sets = [
    { name: "northwind", pages: northwindPages, answerable: await json("eval/fixtures/questions.json"), unanswerable: await json("eval/fixtures/unanswerable.json") },
    { name: "govuk", pages: await json("eval/govuk/pages.json"), answerable: await json("eval/govuk/questions.json"), unanswerable: await json("eval/govuk/unanswerable.json") },
  ];
  // Out of scope from another domain, as the held-out evaluation has: 40 of the other set's
  // questions (every k-th), next to each set's own near misses.
  const far = (other) => other.answerable.filter((_, index) => index % Math.floor(other.answerable.length / 40) === 0).slice(0, 40);
  const [northwind, govuk] = sets;
  const near = (set) => set.unanswerable.map((item) => ({ ...item, kind: "near" }));
  const farOf = (other, prefix) => far(other).map((item) => ({ id: `${prefix}${item.id}`, question: item.question, kind: "far" }));
  return [
    { ...northwind, unanswerable: [...near(northwind), ...farOf(govuk, "x")] },
    { ...govuk, unanswerable: [...near(govuk), ...farOf(northwind, "x")] },
  ];
}
