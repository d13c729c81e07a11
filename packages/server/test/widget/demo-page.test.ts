import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { adminOf, seedTenant, SITE_ORIGIN, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";

const PUBLIC_URL = "https://frontdesk.example.com";
const W = "/api/v1/widget";

const init = (t: TestApp, agentId: string, headers: Record<string, string>) =>
  t.app.inject({ method: "POST", url: `${W}/init`, headers, payload: { agent_id: agentId, page_url: `${PUBLIC_URL}/demo/${agentId}` } });

describe("GET /demo/{agent_id} and init from the service's own origin", () => {
  let t: TestApp;
  let tenant: Tenant;
  let hostileName: string;
  beforeAll(async () => {
    t = await createTestApp("pglite", { FRONTDESK_PUBLIC_URL: PUBLIC_URL });
    tenant = await seedTenant(t.services);
    const agent = (await runAdminCommand(adminOf(t.services), {
      command: "agent.create",
      workspaceId: tenant.workspaceId,
      name: `Bikes </title><script>alert(1)</script> & "Co"`,
      origins: [SITE_ORIGIN],
    })) as { id: string };
    hostileName = agent.id;
  });
  afterAll(() => t.close());

  it("happy: a page embedding the widget for the agent, under a strict CSP whose style hash is the page's one style", async () => {
    const response = await t.app.inject({ method: "GET", url: `/demo/${tenant.agentId}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.body).toContain(`<script src="/widget.js" data-agent-id="${tenant.agentId}" data-open="true" async></script>`);
    expect(response.body).toContain("<title>Acme Assistant · Frontdesk demo</title>");
    const csp = String(response.headers["content-security-policy"]);
    const style = /<style>([^<]*)<\/style>/.exec(response.body)![1]!;
    expect(csp).toBe(
      `default-src 'none'; script-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'`,
    );
    expect(response.body.match(/<script/g)).toHaveLength(1);
  });

  it("security: the agent's name is escaped in the page", async () => {
    const response = await t.app.inject({ method: "GET", url: `/demo/${hostileName}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("<h1>Bikes &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;</h1>");
    expect(response.body.match(/<script/g)).toHaveLength(1);
  });

  it("error: an unknown or unpublished agent is 404 agent_not_found; an id too long is 422", async () => {
    const draft = await seedTenant(t.services, { draft: true });
    for (const id of ["agt_nope", draft.agentId]) {
      const response = await t.app.inject({ method: "GET", url: `/demo/${id}` });
      expect(response.statusCode, id).toBe(404);
      expect(response.json().error.code, id).toBe("agent_not_found");
    }
    const long = await t.app.inject({ method: "GET", url: `/demo/${"a".repeat(65)}` });
    expect(long.statusCode).toBe(422);
    expect(long.json().error.code).toBe("validation_failed");
  });

  it("happy: init admits the public URL's origin, and a same-origin request (the page opened under another host name), for any published agent", async () => {
    const fromPublic = await init(t, tenant.agentId, { origin: PUBLIC_URL });
    expect(fromPublic.statusCode).toBe(200);
    const sameOrigin = await init(t, tenant.agentId, { origin: "http://localhost:8080", host: "localhost:8080" });
    expect(sameOrigin.statusCode).toBe(200);
  });

  it("security: other origins are still refused, a same-origin claim on another port too", async () => {
    const otherOrigins: Record<string, string>[] = [{ origin: "https://evil.example.net" }, { origin: "http://localhost:9999", host: "localhost:8080" }, { origin: "https://frontdesk.example.com.evil.net" }];
    for (const headers of otherOrigins) {
      const response = await init(t, tenant.agentId, headers);
      expect(response.statusCode, headers.origin).toBe(403);
      expect(response.json().error.code).toBe("origin_forbidden");
    }
  });
});

describe("FRONTDESK_DEMO=false", () => {
  let t: TestApp;
  let tenant: Tenant;
  beforeAll(async () => {
    t = await createTestApp("pglite", { FRONTDESK_PUBLIC_URL: PUBLIC_URL, FRONTDESK_DEMO: "false" });
    tenant = await seedTenant(t.services);
  });
  afterAll(() => t.close());

  it("error: there is no demo page, and init refuses the service's own origin", async () => {
    const page = await t.app.inject({ method: "GET", url: `/demo/${tenant.agentId}` });
    expect(page.statusCode).toBe(404);
    expect(page.json().error.code).toBe("not_found");
    const ownOrigins: Record<string, string>[] = [{ origin: PUBLIC_URL }, { origin: "http://localhost:8080", host: "localhost:8080" }];
    for (const headers of ownOrigins) {
      const response = await init(t, tenant.agentId, headers);
      expect(response.statusCode, headers.origin).toBe(403);
      expect(response.json().error.code).toBe("origin_forbidden");
    }
    expect((await init(t, tenant.agentId, { origin: SITE_ORIGIN })).statusCode).toBe(200);
  });
});
