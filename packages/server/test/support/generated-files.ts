import { strToU8, zipSync } from "fflate";
import { PDFDocument, StandardFonts } from "pdf-lib";

/** A PDF with one text per page (pdf-lib, standard Helvetica): page N holds pages[N-1]. */
export async function buildPdf(pages: readonly string[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([595, 842]);
    let y = 800;
    for (const line of wrap(text, 80)) {
      page.drawText(line, { x: 40, y, size: 11, font });
      y -= 16;
    }
  }
  return pdf.save();
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** A PDF written by hand from its objects, with a correct cross-reference table. */
export function handWrittenPdf(objects: readonly string[], trailerExtra = ""): Uint8Array {
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, "latin1"));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/**
 * A PDF with a million pages that is a few hundred bytes: a page tree six levels deep whose every
 * node lists the same child ten times, down to one page. A parser that read every page would run
 * for hours.
 */
export function millionPagePdf(): Uint8Array {
  // Object 1: the catalog; 2..7: the tree's levels, 10^6 pages down to 10; 8: the page.
  const objects = ["<< /Type /Catalog /Pages 2 0 R >>"];
  for (let level = 0; level < 6; level++) {
    const child = `${level + 3} 0 R`;
    objects.push(`<< /Type /Pages /Kids [${Array(10).fill(child).join(" ")}] /Count ${10 ** (6 - level)}${level > 0 ? ` /Parent ${level + 1} 0 R` : ""} >>`);
  }
  objects.push("<< /Type /Page /Parent 7 0 R /MediaBox [0 0 612 792] >>");
  return handWrittenPdf(objects);
}

/** A PDF encrypted with the standard handler and a user password nobody knows. */
export function encryptedPdf(): Uint8Array {
  const hex32 = (seed: number) => Array.from({ length: 32 }, (_, i) => ((i * 37 + seed) % 256).toString(16).padStart(2, "0")).join("");
  return handWrittenPdf(
    [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
      `<< /Filter /Standard /V 1 /R 2 /O <${hex32(7)}> /U <${hex32(11)}> /P -4 >>`,
    ],
    "/Encrypt 4 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>] ",
  );
}

/** Starts like a PDF, then is nothing of the kind. */
export function malformedPdf(): Uint8Array {
  return Buffer.from("%PDF-1.7\n" + "this is not a PDF body at all\n".repeat(40), "latin1");
}

const escapeXml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export type DocxBlock = { heading: string } | { paragraph: string } | { table: string[][] };

/** A DOCX zipped by hand (fflate): headings in the Heading 1 style, paragraphs, tables. */
export function buildDocx(blocks: readonly DocxBlock[], extra: Record<string, Uint8Array> = {}): Uint8Array {
  const run = (text: string) => `<w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`;
  const body = blocks
    .map((block) => {
      if ("heading" in block) return `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr>${run(block.heading)}</w:p>`;
      if ("paragraph" in block) return `<w:p>${run(block.paragraph)}</w:p>`;
      const rows = block.table.map((row) => `<w:tr>${row.map((cell) => `<w:tc><w:p>${run(cell)}</w:p></w:tc>`).join("")}</w:tr>`).join("");
      return `<w:tbl>${rows}</w:tbl>`;
    })
    .join("");
  const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  return zipSync({
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
        '<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
    ),
    "_rels/.rels": strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    "word/_rels/document.xml.rels": strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
    ),
    "word/styles.xml": strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${W}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
    ),
    "word/document.xml": strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${W}><w:body>${body}</w:body></w:document>`),
    ...extra,
  });
}

/** A DOCX with a part that inflates to `expandedBytes` of zeros: a few hundred kB on the wire. */
export function docxZipBomb(expandedBytes: number): Uint8Array {
  return buildDocx([{ paragraph: "Nothing to see." }], { "word/media/padding.bin": new Uint8Array(expandedBytes) });
}

/** A multipart/form-data body with fields and one file part. */
export function formData(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array; type?: string; field?: string }): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append(file.field ?? "file", new Blob([file.bytes], { type: file.type ?? "application/octet-stream" }), file.name);
  return form;
}
