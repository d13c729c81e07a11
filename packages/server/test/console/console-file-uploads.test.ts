import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { buildDocx, buildPdf, formData } from "../support/generated-files.js";
import { seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

// Files go through extraction threads, embedding and the store on a shared machine: minutes, not seconds.
vi.setConfig({ testTimeout: 240_000 });

const PUBLIC_URL = "http://console.frontdesk.test";
const UPLOAD_MAX_BYTES = 64 * 1024;
/** A real PNG (one pixel), to be named .pdf. */
const ONE_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/**
 * The console's file uploads (issue 32): the Knowledge screen posts a file as multipart/form-data
 * to POST /console/knowledge/sources, which calls the Sources API's use case with the operator's
 * workspace: the same limits, type checks and deduplication, under the console's session and role.
 */
describeEachStore("file uploads from the console on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentRole: ConsoleSession;
  let stranger: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: PUBLIC_URL, FRONTDESK_UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) }, { workers: { allowPrivateNetworks: true } });
    tenant = await seedTenant(t.services);
    other = await seedTenant(t.services);
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin" });
    agentRole = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    stranger = await createSignedInOperator(t, { workspaceId: other.workspaceId, role: "admin" });
  });
  afterAll(() => t.close());

  const upload = (session: ConsoleSession, name: string, bytes: Uint8Array, fields: Record<string, string> = {}, headers: Record<string, string> = session.headers) =>
    t.app.inject({ method: "POST", url: `${CONSOLE}/knowledge/sources`, headers, payload: formData({ agent_id: tenant.agentId, kind: "file", ...fields }, { name, bytes }) });
  const sourceCount = async () => (await t.app.inject({ method: "GET", url: `${CONSOLE}/knowledge/sources?agent_id=${tenant.agentId}`, headers: admin.headers })).json().data.length as number;
  const settled = async (id: string) => {
    const read = async () => (await t.app.inject({ method: "GET", url: `${CONSOLE}/knowledge/sources/${id}`, headers: admin.headers })).json().data;
    await expect.poll(async () => (await read()).syncing, { timeout: 120_000, interval: 100 }).toBe(false);
    return read();
  };

  it("happy: an admin uploads a PDF and a DOCX; each is a file source of the workspace, indexed, its document listed", async () => {
    const pdf = await buildPdf(["Warranty. Every frame is guaranteed for ten years against defects.", "Batteries are guaranteed for two years."]);
    const created = await upload(admin, "Warranty.pdf", pdf);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({ kind: "file", agent_id: tenant.agentId, title: "Warranty.pdf", config: { filename: "Warranty.pdf", media_type: "application/pdf", bytes: pdf.length } });
    const docx = buildDocx([{ heading: "Servicing" }, { paragraph: "A yearly service costs forty-five euros and takes one day." }]);
    const second = await upload(admin, "Servicing.docx", docx, { title: "Servicing guide" });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().data.title).toBe("Servicing guide");

    for (const id of [created.json().data.id as string, second.json().data.id as string]) {
      expect(await settled(id)).toMatchObject({ status: "indexed", error: null });
      const documents = await t.app.inject({ method: "GET", url: `${CONSOLE}/knowledge/sources/${id}/documents`, headers: agentRole.headers });
      expect(documents.statusCode).toBe(200);
      expect(documents.json().data).toHaveLength(1);
      expect(documents.json().data[0]).toMatchObject({ status: "indexed" });
      expect(documents.json().data[0].chunk_count).toBeGreaterThan(0);
    }

    // The same bytes again: the existing source (200), as through the Sources API.
    const again = await upload(admin, "Warranty copy.pdf", pdf);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.id).toBe(created.json().data.id);
  });

  it("happy: a CSV of questions becomes curated answers, or passages when the owner chooses chunks", async () => {
    const csv = Buffer.from("question,answer\nDo you rent tandems?,Yes: tandems rent for thirty euros a day.\n");
    const curated = await upload(admin, "faq.csv", csv);
    expect(curated.statusCode, curated.body).toBe(201);
    expect(curated.json().data.config.csv_mode).toBe("curated");
    const chunks = await upload(admin, "faq-as-passages.csv", Buffer.from("question,answer\nDo you rent cargo bikes?,Cargo bikes rent for forty euros a day.\n"), { csv_mode: "chunks" });
    expect(chunks.statusCode, chunks.body).toBe(201);
    expect(chunks.json().data.config.csv_mode).toBe("chunks");
    expect(await settled(chunks.json().data.id)).toMatchObject({ status: "indexed" });
  });

  it("error: a file over FRONTDESK_UPLOAD_MAX_BYTES is 413 file_too_large and content of no taken kind is 415, in the error shape; nothing is made", async () => {
    const before = await sourceCount();
    const large = await upload(admin, "handbook.txt", Buffer.alloc(UPLOAD_MAX_BYTES + 1024, "a"));
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ error: { code: "file_too_large", message: expect.stringContaining(`${UPLOAD_MAX_BYTES} bytes`) } });
    const png = Buffer.from(ONE_PIXEL_PNG, "base64");
    const disguised = await upload(admin, "returns.pdf", png);
    expect(disguised.statusCode).toBe(415);
    expect(disguised.json().error).toEqual({ code: "unsupported_media_type", message: expect.stringContaining("image/png") });
    const noFile = await t.app.inject({ method: "POST", url: `${CONSOLE}/knowledge/sources`, headers: admin.headers, payload: formData({ agent_id: tenant.agentId, kind: "file" }) });
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json().error.fields.file).toBeDefined();
    expect(await sourceCount()).toBe(before);
  });

  it("security: an agent-role operator, another workspace's admin and a request without the public Origin cannot upload", async () => {
    const before = await sourceCount();
    const text = Buffer.from("Planted text about free bikes for everyone.\n");
    const agent = await upload(agentRole, "planted.txt", text);
    expect(agent.statusCode).toBe(403);
    expect(agent.json().error.code).toBe("forbidden");
    const foreign = await upload(stranger, "planted.txt", text);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe("agent_not_found");
    const csrf = await upload(admin, "planted.txt", text, {}, { cookie: admin.headers.cookie });
    expect(csrf.statusCode).toBe(403);
    expect(csrf.json().error.code).toBe("csrf_origin_mismatch");
    const anonymous = await upload(admin, "planted.txt", text, {}, { origin: PUBLIC_URL });
    expect(anonymous.statusCode).toBe(401);
    expect(await sourceCount()).toBe(before);
  });
});
