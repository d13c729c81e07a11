// The files phase of `bench/ingest.mjs` (issue 32): uploads generated PDFs and DOCX files through
// the Sources API (multipart/form-data) and times them until indexed; then one PDF of about 25 MB,
// sampling the service's RSS (its extraction threads included) while it is read.
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

async function buildPdf(pages, linesPerPage, salt) {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842]);
    for (let l = 0; l < linesPerPage; l++) page.drawText(line(p * linesPerPage + l, salt), { x: 30, y: 820 - l * 12, size: 8, font });
  }
  return pdf.save({ useObjectStreams: false });
}

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

/** Files per second and MB per second for PDF and DOCX, and the service's peak RSS while it reads a ~25 MB PDF. */
export async function measureFiles({ baseUrl, token, agentId, client, sampler, runId, count }) {
  const pdfs = [];
  const docxs = [];
  for (let i = 0; i < count; i++) {
    pdfs.push({ name: `manual-${runId}-${i}.pdf`, bytes: await buildPdf(10, 60, `${runId}-pdf-${i}`) });
    docxs.push({ name: `guide-${runId}-${i}.docx`, bytes: buildDocx(400, `${runId}-docx-${i}`) });
  }
  const pdf = await timeBatch({ baseUrl, token, agentId, client }, pdfs);
  const docx = await timeBatch({ baseUrl, token, agentId, client }, docxs);
  const large = await buildPdf(1900, 68, `${runId}-large`);
  sampler.reset();
  const before = sampler.peakMiB;
  const largeRun = await timeBatch({ baseUrl, token, agentId, client }, [{ name: `large-${runId}.pdf`, bytes: large }]);
  return { pdf, docx, large: { ...largeRun, rssBeforeMiB: before, peakRssMiB: sampler.peakMiB } };
}
