import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { adminOf, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { buildDocx, docxZipBomb, encryptedPdf, formData, malformedPdf, millionPagePdf } from "../support/generated-files.js";

// Files go through extraction threads, embedding and the store on a shared machine: minutes, not seconds.
vi.setConfig({ testTimeout: 240_000 });

const SOURCES = "/api/v1/workspace/sources";
const MAX_BYTES = 1024 * 1024;

describeEachStore("Hostile files on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(
      kind,
      { FRONTDESK_RATE_LIMIT_SOURCES_PER_MINUTE: "1000", FRONTDESK_RATE_LIMIT_SESSION_PER_MINUTE: "1000", FRONTDESK_UPLOAD_MAX_BYTES: String(MAX_BYTES) },
      { workers: { allowPrivateNetworks: true } },
    );
    tenant = await seedTenant(t.services);
    token = ((await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "files" })) as { token: string }).token;
  });
  afterAll(() => t.close());

  const upload = (name: string, bytes: Uint8Array) =>
    t.app.inject({ method: "POST", url: SOURCES, headers: { authorization: `Bearer ${token}` }, payload: formData({ agent_id: tenant.agentId, kind: "file" }, { name, bytes }) });

  async function settled(sourceId: string): Promise<{ status: string; error: { code: string; message: string } | null }> {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const source = (await t.app.inject({ method: "GET", url: `${SOURCES}/${sourceId}`, headers: { authorization: `Bearer ${token}` } })).json().data;
      if (source.status !== "pending") return source;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`source ${sourceId} did not settle`);
  }

  it("security: each hostile file ends as a failed source with its reason, while the service keeps answering", async () => {
    const hostile: [string, Uint8Array, RegExp][] = [
      ["bomb.docx", docxZipBomb(110 * 1024 * 1024), /^the DOCX expands to \d+ bytes, over the \d+ read \(a zip bomb\?\)$/],
      ["endless.pdf", millionPagePdf(), /^the PDF has 1000000 pages; at most 2000 are read$/],
      ["broken.pdf", malformedPdf(), /^(malformed|unreadable) PDF/],
      ["secret.pdf", encryptedPdf(), /^encrypted PDF/],
      ["manual.pdf", buildDocx([{ paragraph: "A document pretending to be a PDF." }]), /^the file is named manual\.pdf but its content is a DOCX document$/],
    ];
    const ids: string[] = [];
    for (const [name, bytes] of hostile) {
      const response = await upload(name, bytes);
      expect(response.statusCode, name).toBe(201);
      ids.push(response.json().data.id);
    }
    // Meanwhile the service answers: a visitor starts a session, the health check is green.
    await startSession(t.app, tenant.agentId);
    expect((await t.app.inject({ method: "GET", url: "/livez" })).statusCode).toBe(200);
    for (const [i, [name, , reason]] of hostile.entries()) {
      const source = await settled(ids[i]!);
      expect(source.status, name).toBe("failed");
      expect(source.error?.code, name).toBe("extraction_failed");
      expect(source.error?.message, name).toMatch(reason);
    }
    await startSession(t.app, tenant.agentId);
  });

  it("error: a file over FRONTDESK_UPLOAD_MAX_BYTES is a 413 file_too_large, and no source is made", async () => {
    const response = await upload("huge.txt", Buffer.alloc(MAX_BYTES + 1, "a"));
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toEqual({ code: "file_too_large", message: expect.stringContaining(String(MAX_BYTES)) });
    expect((await t.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM sources WHERE config->>'filename' = 'huge.txt'`)).rows[0]!.n).toBe(0);
  });
});
