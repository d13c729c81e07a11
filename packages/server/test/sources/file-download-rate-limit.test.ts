import { afterAll, beforeAll, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { formData } from "../support/generated-files.js";
import { adminOf, seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const SOURCES = "/api/v1/workspace/sources";

/** The public download of a file source's original (issue 32): counted per client IP, ids guessed or not. */
describeEachStore("the file download's rate limit on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let filePath = "";

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_RATE_LIMIT_FILES_PER_MINUTE: "3" });
    tenant = await seedTenant(t.services);
    const { token } = (await runAdminCommand(adminOf(t.services), { command: "token.create", workspaceId: tenant.workspaceId, name: "files" })) as { token: string };
    const created = await t.app.inject({
      method: "POST",
      url: SOURCES,
      headers: { authorization: `Bearer ${token}` },
      payload: formData({ agent_id: tenant.agentId, kind: "file" }, { name: "opening hours.txt", bytes: Buffer.from("The shop opens at nine on weekdays.\n") }),
    });
    expect(created.statusCode, created.body).toBe(201);
    filePath = new URL(created.json().data.config.file_url as string).pathname;
  });
  afterAll(() => t.close());

  const download = (path: string, remoteAddress: string) => t.app.inject({ method: "GET", url: path, remoteAddress });

  it("security: past FRONTDESK_RATE_LIMIT_FILES_PER_MINUTE an address gets 429 rate_limited in the error shape; another address does not", async () => {
    const first = await download(filePath, "203.0.113.7");
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe("The shop opens at nine on weekdays.\n");
    expect(first.headers["x-ratelimit-limit"]).toBe("3");
    expect(first.headers["x-ratelimit-remaining"]).toBe("2");
    // Guessing an id spends the same budget as downloading.
    expect((await download("/api/v1/files/abcdefabcdefabcdefabcdefabcdefab/x.pdf", "203.0.113.7")).statusCode).toBe(404);
    expect((await download(filePath, "203.0.113.7")).statusCode).toBe(200);

    const refused = await download(filePath, "203.0.113.7");
    expect(refused.statusCode).toBe(429);
    expect(refused.headers["content-type"]).toMatch(/^application\/json/);
    expect(refused.json()).toEqual({ error: { code: "rate_limited", message: expect.stringMatching(/^Too many requests; retry in \d+ seconds\.$/) } });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.headers["x-ratelimit-remaining"]).toBe("0");

    const elsewhere = await download(filePath, "198.51.100.20");
    expect(elsewhere.statusCode).toBe(200);
    expect(elsewhere.headers["x-ratelimit-remaining"]).toBe("2");
  });
});
