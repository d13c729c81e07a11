// The files phase of `bench/ingest.mjs` (issue 32): uploads generated PDFs and DOCX files through
// the Sources API (multipart/form-data) and times them until indexed; then large PDFs one at a
// time (BENCH_LARGE_FILES), sampling the service's RSS (its extraction threads included) while each
// is read and indexed:
//   text    1,900 pages of small text, 6.9 MB (pdf-lib compresses the text): the most text a PDF may hold
//   images  a 25 MB manual: 200 pages of text, each with a photo-like picture (incompressible noise)
import { randomBytes } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import { strToU8, zipSync } from "fflate";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { BenchFailure } from "./bench-service.mjs";

const SENTENCES = [
  "Orders placed before two in the afternoon leave the warehouse the same working day.",
  "Every frame carries a lifetime warranty for its first owner against defects in material.",
  "Returned items are inspected within three working days of their arrival at the warehouse.",
  "Gift cards never expire and can be used online and in every shop of the chain.",
  "Electric bike batteries are best stored at room temperature, half charged, over the winter.",
];
const line = (i, salt) => `${salt} ${SENTENCES[i % SENTENCES.length]} (item ${i})`;

/** A PNG of random RGB pixels: as large compressed as raw, like a photograph's worth of bytes. */
function noisePng(width, height) {
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = [];
  for (let y = 0; y < height; y++) rows.push(Buffer.from([0]), randomBytes(width * 3));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 1 })), chunk("IEND", Buffer.alloc(0))]);
}

/** A PDF of `pages` pages of `linesPerPage` lines each; with `imageSide`, each page also shows its own noise picture of that many pixels a side. */
export async function buildPdf(pages, linesPerPage, salt, imageSide = 0) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    for (let l = 0; l < linesPerPage; l++) page.drawText(line(p * linesPerPage + l, salt), { x: 30, y: 820 - l * 12, size: 8, font });
    if (imageSide > 0) page.drawImage(await pdf.embedPng(noisePng(imageSide, imageSide)), { x: 30, y: 20, width: 200, height: 200 });
  }
  return pdf.save({ useObjectStreams: false });
}

/** The large files measured one at a time, by name (BENCH_LARGE_FILES). */
export const LARGE_FILES = {
  text: (salt) => buildPdf(1900, 68, `${salt}-text`),
  images: (salt) => buildPdf(200, 40, `${salt}-images`, 200),
};

function buildDocx(paragraphs, salt) {
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  let body = "";
  for (let i = 0; i < paragraphs; i++) {
    if (i % 10 === 0) body += `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Section ${i / 10 + 1}</w:t></w:r></w:p>`;
    body += `<w:p><w:r><w:t>${line(i, salt)}</w:t></w:r></w:p>`;
  }
  return zipSync({
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    "_rels/.rels": strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    "word/document.xml": strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${body}</w:body></w:document>`),
  });
}

async function upload(baseUrl, token, agentId, name, bytes) {
  const form = new FormData();
  form.append("agent_id", agentId);
  form.append("kind", "file");
  form.append("file", new Blob([bytes]), name);
  const response = await fetch(`${baseUrl}/api/v1/workspace/sources`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  const json = await response.json();
  if (response.status !== 201) throw new BenchFailure(`upload of ${name} answered ${response.status}: ${JSON.stringify(json)}`);
  return json.data.id;
}

async function waitIndexed(client, ids, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(ids);
  while (pending.size > 0) {
    if (Date.now() > deadline) throw new BenchFailure(`${pending.size} files still pending after ${timeoutMs} ms`);
    for (const id of [...pending]) {
      const source = await client.get(id);
      if (source.status === "failed") throw new BenchFailure(`file source ${id} failed: ${JSON.stringify(source.error)}`);
      if (source.status === "indexed") pending.delete(id);
    }
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function timeBatch({ baseUrl, token, agentId, client }, files) {
  const bytes = files.reduce((sum, file) => sum + file.bytes.length, 0);
  const started = performance.now();
  const ids = [];
  for (const file of files) ids.push(await upload(baseUrl, token, agentId, file.name, file.bytes));
  await waitIndexed(client, ids, 600_000);
  const seconds = (performance.now() - started) / 1000;
  return { files: files.length, megabytes: bytes / 1e6, seconds, filesPerSecond: files.length / seconds, megabytesPerSecond: bytes / 1e6 / seconds };
}

/**
 * Files per second and MB per second for PDF and DOCX, then for each large file its time to
 * indexed and the service's peak RSS while it was read and indexed.
 */
export async function measureFiles({ baseUrl, token, agentId, client, sampler, runId, count, large = Object.keys(LARGE_FILES) }) {
  const pdfs = [];
  const docxs = [];
  for (let i = 0; i < count; i++) {
    pdfs.push({ name: `manual-${runId}-${i}.pdf`, bytes: await buildPdf(10, 60, `${runId}-pdf-${i}`) });
    docxs.push({ name: `guide-${runId}-${i}.docx`, bytes: buildDocx(400, `${runId}-docx-${i}`) });
  }
  const pdf = await timeBatch({ baseUrl, token, agentId, client }, pdfs);
  const docx = await timeBatch({ baseUrl, token, agentId, client }, docxs);
  const largeRuns = {};
  for (const name of large) {
    const build = LARGE_FILES[name];
    if (!build) throw new BenchFailure(`unknown large file ${name}: one of ${Object.keys(LARGE_FILES).join(", ")}`);
    const bytes = await build(runId);
    sampler.reset();
    const before = sampler.peakMiB;
    const run = await timeBatch({ baseUrl, token, agentId, client }, [{ name: `large-${name}-${runId}.pdf`, bytes }]);
    largeRuns[name] = { ...run, rssBeforeMiB: before, peakRssMiB: sampler.peakMiB };
  }
  return { pdf, docx, large: largeRuns };
}
