import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, bearer, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { buildDocx, buildPdf, formData } from "../support/generated-files.js";

// Files go through extraction threads, embedding and the store on a shared machine: minutes, not seconds.
vi.setConfig({ testTimeout: 240_000 });

const SOURCES = "/api/v1/workspace/sources";
const W = "/api/v1/widget";

const returnsPages = [
  "Returns policy. This document explains how returns work at our shop. Read every page before you send anything back.",
  "Shipping a return. Pack the item in its original box and print the label from your account page.",
  "Refund timing. Once the warehouse has inspected the returned parcel, the refund reaches your card within seven banking days.",
];

describeEachStore("File sources on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "1000", FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000" }, { workers: { allowPrivateNetworks: true } });
    tenant = await seedTenant(t.services);
    token = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "files" })) as { token: string }).token;
  });
  afterAll(() => t.close());

  const upload = (name: string, bytes: Uint8Array, fields: Record<string, string> = {}) =>
    t.app.inject({ method: "POST", url: SOURCES, headers: { authorization: `Bearer ${token}` }, payload: formData({ agent_id: tenant.agentId, kind: "file", ...fields }, { name, bytes }) });

  async function settled(sourceId: string): Promise<{ status: string; error: { code: string; message: string } | null; config: Record<string, unknown> }> {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const response = await t.app.inject({ method: "GET", url: `${SOURCES}/${sourceId}`, headers: { authorization: `Bearer ${token}` } });
      const source = response.json().data;
      if (source.status !== "pending") return source;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`source ${sourceId} did not settle`);
  }

  const ask = async (message: string) => {
    const session = await startSession(t.app, tenant.agentId);
    const response = await t.app.inject({ method: "POST", url: `${W}/messages`, headers: bearer(session.jwt), payload: { message } });
    expect(response.statusCode).toBe(200);
    return response.json().data as { content: string; citations: { id: number; url: string; title?: string }[] };
  };

  it("happy: a PDF of three pages is stored, indexed page by page, and cited at its page", async () => {
    const pdf = await buildPdf(returnsPages);
    const response = await upload("Returns policy.pdf", pdf);
    expect(response.statusCode).toBe(201);
    const source = response.json().data;
    expect(source).toMatchObject({ kind: "file", status: "pending", config: { filename: "Returns policy.pdf", media_type: "application/pdf", bytes: pdf.length } });
    const fileUrl = source.config.file_url as string;
    expect(fileUrl).toMatch(/\/api\/v1\/files\/[A-Za-z0-9]{32}\/Returns%20policy\.pdf$/);
    expect(await settled(source.id)).toMatchObject({ status: "indexed", error: null });

    const { rows } = await t.services.db.query<{ page: number | null; title: string }>(
      `SELECT c.page, c.title FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.source_id = $1 ORDER BY c.chunk_index`,
      [source.id],
    );
    expect(rows.map((row) => row.page)).toEqual([1, 2, 3]);
    expect(rows[2]!.title).toBe("Returns policy.pdf, page 3");

    const answer = await ask("How many banking days until the refund reaches my card after the warehouse inspected the parcel?");
    expect(answer.content).toContain("seven banking days");
    expect(answer.citations[0]).toMatchObject({ url: `${fileUrl}#page=3`, title: "Returns policy.pdf, page 3" });

    // The visitor following the citation gets the original bytes, sandboxed.
    const served = await t.app.inject({ method: "GET", url: new URL(fileUrl).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("application/pdf");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-security-policy"]).toBe("sandbox; default-src 'none'");
    expect(served.headers["content-disposition"]).toBe(`inline; filename="Returns policy.pdf"; filename*=UTF-8''Returns%20policy.pdf`);
    expect(Buffer.compare(served.rawPayload, Buffer.from(pdf))).toBe(0);
  });

  it("happy: the same bytes again return the existing source (200), deduplicated by SHA-256", async () => {
    const pdf = await buildPdf(["Gift cards never expire and can be used online or in any shop."]);
    const first = await upload("gift-cards.pdf", pdf);
    expect(first.statusCode).toBe(201);
    const again = await upload("renamed.pdf", pdf);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(first.json().data.id);
    await settled(first.json().data.id);
  });

  it("happy: a DOCX keeps its headings as headings and its table as text, and is cited", async () => {
    const docx = buildDocx([
      { heading: "Warranty terms" },
      { paragraph: "Every frame carries a lifetime warranty for the first owner." },
      { heading: "Service prices" },
      { table: [["Service", "Price"], ["Wheel truing", "18 euros"], ["Brake bleeding", "35 euros"]] },
    ]);
    const response = await upload("Service manual.docx", docx, { title: "Service manual" });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.config.media_type).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    const source = response.json().data;
    expect(await settled(source.id)).toMatchObject({ status: "indexed" });
    const { rows } = await t.services.db.query<{ heading: string | null; content: string }>(
      `SELECT c.heading, c.content FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.source_id = $1 ORDER BY c.chunk_index`,
      [source.id],
    );
    // Small sections share a chunk: the first keeps its heading, the next one's is written in as its own paragraph.
    expect(rows[0]!.heading).toBe("Warranty terms");
    expect(rows.map((row) => row.content).join("\n")).toMatch(/\n\nService prices\n\n/);
    expect(rows.map((row) => row.content).join("\n")).toMatch(/Brake bleeding\W+35 euros/);
    const answer = await ask("How much does brake bleeding cost in euros?");
    expect(answer.citations).toContainEqual(expect.objectContaining({ url: source.config.file_url, title: "Service manual" }));
  });

  it("happy: Markdown headings stay headings, and a given source_url is what citations carry", async () => {
    const markdown = "# Opening hours\n\nThe workshop opens at eight in the morning on weekdays.\n\n## Holidays\n\nThe workshop closes for the last two weeks of August.\n";
    const response = await upload("hours.md", Buffer.from(markdown), { source_url: "https://shop.example.com/hours" });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.config.media_type).toBe("text/markdown");
    const source = response.json().data;
    expect(await settled(source.id)).toMatchObject({ status: "indexed" });
    const { rows } = await t.services.db.query<{ heading: string | null; content: string }>(`SELECT c.heading, c.content FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.source_id = $1`, [source.id]);
    expect(rows[0]!.heading).toBe("Opening hours");
    expect(rows[0]!.content).toMatch(/\n\nHolidays\n\n/);
    const answer = await ask("When does the workshop close for holidays in August?");
    expect(answer.citations[0]).toMatchObject({ url: "https://shop.example.com/hours" });
  });

  it("happy: a CSV becomes curated answers by default (answered as written), or chunks when the owner chooses", async () => {
    const csv = "question,answer\nDo you rent tandem bikes?,Yes: tandems rent for 40 euros a day from the harbour shop.\nCan I bring my dog?,Dogs on a leash are welcome in every shop.\n";
    const curated = await upload("faq.csv", Buffer.from(csv));
    expect(curated.statusCode).toBe(201);
    expect(curated.json().data.config).toMatchObject({ media_type: "text/csv", csv_mode: "curated" });
    expect(await settled(curated.json().data.id)).toMatchObject({ status: "indexed", config: { curated_answers: 2 } });
    const answer = await ask("Do you rent tandem bikes?");
    expect(answer.content).toBe("Yes: tandems rent for 40 euros a day from the harbour shop.");

    const chunkCsv = "Is there a student discount?;Students get ten percent off every service with a valid card.\n";
    const chunks = await upload("discounts.csv", Buffer.from(chunkCsv), { csv_mode: "chunks" });
    const source = chunks.json().data;
    expect(await settled(source.id)).toMatchObject({ status: "indexed" });
    const cited = await ask("How much discount do students get on a service?");
    expect(cited.content).toContain("ten percent");
    expect(cited.citations[0]).toMatchObject({ url: source.config.file_url });

    // Deleting the source takes its curated answers and its stored file with it.
    const fileUrl = new URL(curated.json().data.config.file_url as string).pathname;
    const deleted = await t.app.inject({ method: "DELETE", url: `${SOURCES}/${curated.json().data.id}`, headers: { authorization: `Bearer ${token}` } });
    expect(deleted.statusCode).toBe(204);
    const { rows } = await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM curated_answers WHERE agent_id = $1 AND question = 'Do you rent tandem bikes?'`, [tenant.agentId]);
    expect(rows[0]!.n).toBe(0);
    const gone = await t.app.inject({ method: "GET", url: fileUrl });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.code).toBe("not_found");
  });

  it("happy: PUT /sources/{id}/file with a changed file replaces its chunks; the same bytes change nothing", async () => {
    const first = await upload("pickup.txt", Buffer.from("Pick-up orders wait for you at the counter for three days."));
    const source = first.json().data;
    await settled(source.id);
    const put = (bytes: Uint8Array, name = "pickup.txt") =>
      t.app.inject({ method: "PUT", url: `${SOURCES}/${source.id}/file`, headers: { authorization: `Bearer ${token}` }, payload: formData({}, { name, bytes }) });
    const same = await put(Buffer.from("Pick-up orders wait for you at the counter for three days."));
    expect(same.statusCode).toBe(200);
    const changed = await put(Buffer.from("Pick-up orders now wait for you at the counter for ten days."));
    expect(changed.statusCode).toBe(202);
    expect(changed.json().data.id).toBe(source.id);
    for (let attempt = 0; attempt < 300; attempt += 1) {
      const { rows } = await t.services.db.query<{ content: string }>(`SELECT c.content FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.source_id = $1`, [source.id]);
      if (rows.some((row) => row.content.includes("ten days"))) {
        expect(rows.every((row) => !row.content.includes("three days"))).toBe(true);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error("the new file was not indexed");
  });

  it("security: an HTML upload is served as an attachment under a sandboxing CSP, never as a page of this origin", async () => {
    const html = "<!doctype html><html><head><title>Sizes</title></head><body><main><h1>Frame sizes</h1><p>A 54 cm frame fits riders from 170 to 178 cm tall.</p><script>alert(document.cookie)</script></main></body></html>";
    const response = await upload("sizes.html", Buffer.from(html));
    expect(response.statusCode).toBe(201);
    expect(response.json().data.config.media_type).toBe("text/html");
    const served = await t.app.inject({ method: "GET", url: new URL(response.json().data.config.file_url as string).pathname });
    expect(served.headers["content-security-policy"]).toBe("sandbox; default-src 'none'");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["content-disposition"]).toMatch(/^attachment; /);
    await settled(response.json().data.id);
  });

  describe("errors", () => {
    it("error: content that is none of the kinds (a PNG named .pdf) is a 415 unsupported_media_type", async () => {
      const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
      const response = await upload("photo.pdf", png);
      expect(response.statusCode).toBe(415);
      expect(response.json().error.code).toBe("unsupported_media_type");
    });

    it("error: kind=file without a file part, or as JSON, is a 422 naming file", async () => {
      const noFile = await t.app.inject({ method: "POST", url: SOURCES, headers: { authorization: `Bearer ${token}` }, payload: formData({ agent_id: tenant.agentId, kind: "file" }) });
      expect(noFile.statusCode).toBe(422);
      expect(noFile.json().error.fields.file).toBeDefined();
      const json = await t.app.inject({ method: "POST", url: SOURCES, headers: { authorization: `Bearer ${token}` }, payload: { agent_id: tenant.agentId, kind: "file", file: "a.pdf" } });
      expect(json.statusCode).toBe(422);
      expect(json.json().error.fields.file).toBeDefined();
    });

    it("error: an unknown agent is a 404, an empty file a 422, an unknown file id a 404", async () => {
      const noAgent = await t.app.inject({ method: "POST", url: SOURCES, headers: { authorization: `Bearer ${token}` }, payload: formData({ agent_id: "agt_missing", kind: "file" }, { name: "a.txt", bytes: Buffer.from("hello") }) });
      expect(noAgent.statusCode).toBe(404);
      expect(noAgent.json().error.code).toBe("agent_not_found");
      const empty = await upload("empty.txt", new Uint8Array());
      expect(empty.statusCode).toBe(422);
      const unknown = await t.app.inject({ method: "GET", url: "/api/v1/files/abcdefabcdefabcdefabcdefabcdefab/x.pdf" });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe("not_found");
    });

    it("error: a token without sources:write cannot upload (403), and nothing is read", async () => {
      const reader = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "reader", abilities: ["sources:read"] })) as { token: string }).token;
      const response = await t.app.inject({ method: "POST", url: SOURCES, headers: { authorization: `Bearer ${reader}` }, payload: formData({ agent_id: tenant.agentId, kind: "file" }, { name: "a.txt", bytes: Buffer.from("hello") }) });
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe("missing_ability");
    });
  });
});
