import { afterAll, beforeAll, expect, it } from "vitest";
import { broadcastsOf } from "../../src/realtime/bus-channels.js";
import { CONSOLE, createSignedInOperator, type ConsoleSession } from "../support/console-session.js";
import { SITE_ORIGIN, seedTenant, startSession, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const PUBLIC_URL = "http://console.frontdesk.test";

describeEachStore("the console's agents on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let other: Tenant;
  let admin: ConsoleSession;
  let agentRole: ConsoleSession;
  let stranger: ConsoleSession;

  beforeAll(async () => {
    t = await createTestApp(kind, { FRONTDESK_PUBLIC_URL: PUBLIC_URL });
    tenant = await seedTenant(t.services);
    other = await seedTenant(t.services);
    admin = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "admin" });
    agentRole = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent" });
    stranger = await createSignedInOperator(t, { workspaceId: other.workspaceId, role: "admin" });
  });
  afterAll(() => t.close());

  const call = (session: ConsoleSession | null, method: "GET" | "POST" | "PATCH", url: string, payload?: unknown, headers?: Record<string, string>) =>
    t.app.inject({
      method,
      url: `${CONSOLE}${url}`,
      headers: headers ?? session?.headers ?? {},
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const init = (agentId: string, origin = SITE_ORIGIN) =>
    t.app.inject({ method: "POST", url: "/api/v1/widget/init", headers: { origin }, payload: { agent_id: agentId, page_url: `${origin}/` } });

  it("happy: an admin creates an agent from the site's address (its origin allowed) with the CLI's defaults; every operator lists and reads it", async () => {
    const created = await call(admin, "POST", "/agents", { name: "Help bot", site_url: "https://www.bakery.example/contact?x=1" });
    expect(created.statusCode, created.body).toBe(201);
    const agent = created.json().data;
    expect(agent).toMatchObject({
      workspace_id: tenant.workspaceId,
      name: "Help bot",
      published: true,
      vertical: "general",
      allowed_origins: ["https://www.bakery.example"],
      persona: { name: "Help bot", tone: "friendly" },
      theme: { primary: "#2563eb" },
      starter_prompts: [],
      language_default: "en",
      behavior_rules: [],
      branding_overrides: {},
      branding: { show: true, display_mode: "logo_and_label", logo_url: `${PUBLIC_URL}/widget/logo.svg` },
    });
    const list = await call(agentRole, "GET", "/agents");
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((entry: { id: string }) => entry.id)).toEqual([tenant.agentId, agent.id]);
    const shown = await call(agentRole, "GET", `/agents/${agent.id}`);
    expect(shown.json().data).toEqual(agent);
    expect((await init(agent.id, "https://www.bakery.example")).statusCode).toBe(200);
  });

  it("happy: a draft with more origins and its own settings", async () => {
    const created = await call(admin, "POST", "/agents", {
      name: "Shop",
      origins: ["https://shop.example.org/", "https://*.shop.example.org"],
      draft: true,
      vertical: "ecommerce",
      persona_name: "Sam",
      tone: "cheerful",
      primary_color: "#AA0000",
      starter_prompts: ["Shipping?"],
      language: "fr",
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({
      published: false,
      vertical: "ecommerce",
      allowed_origins: ["https://shop.example.org", "https://*.shop.example.org"],
      persona: { name: "Sam", tone: "cheerful" },
      theme: { primary: "#AA0000" },
      starter_prompts: ["Shipping?"],
      language_default: "fr",
    });
  });

  it("happy: every setting changes through PATCH, the widget sees it at once, and null puts a setting back to its default", async () => {
    const session = await startSession(t.app, tenant.agentId);
    expect(session.jwt).toBeTruthy();
    const rules = [{ id: "pricing", trigger: { type: "page", url: "/pricing" }, action: { type: "message", text: "Questions about plans?" } }];
    const changed = await call(admin, "PATCH", `/agents/${tenant.agentId}`, {
      name: "Acme Helper",
      origins: [SITE_ORIGIN, "https://acme.example"],
      persona_name: "Zed",
      tone: "formal",
      primary_color: "#000000",
      starter_prompts: ["Returns?"],
      language: "de",
      behavior_rules: rules,
      branding: { label: "Powered by Acme", url: "https://acme.example/", display_mode: "label_only", show: true },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({
      name: "Acme Helper",
      allowed_origins: [SITE_ORIGIN, "https://acme.example"],
      persona: { name: "Zed", tone: "formal" },
      theme: { primary: "#000000" },
      starter_prompts: ["Returns?"],
      language_default: "de",
      behavior_rules: rules,
      branding_overrides: { label: "Powered by Acme", url: "https://acme.example/", display_mode: "label_only", show: true },
      branding: { label: "Powered by Acme", url: "https://acme.example/", display_mode: "label_only", show: true },
    });
    const widget = (await init(tenant.agentId, "https://acme.example")).json().data;
    expect(widget.agent).toMatchObject({ name: "Acme Helper", persona: { name: "Zed", tone: "formal" }, theme: { primary: "#000000" }, language_default: "de" });
    expect(widget.branding).toMatchObject({ label: "Powered by Acme", display_mode: "label_only" });
    expect(widget.behavior_rules).toEqual(rules);

    const reset = await call(admin, "PATCH", `/agents/${tenant.agentId}`, { persona_name: null, tone: null, primary_color: null, language: null, branding: null, vertical: "ecommerce" });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data).toMatchObject({
      vertical: "ecommerce",
      persona: { name: "Acme Helper", tone: "friendly" },
      theme: { primary: "#2563eb" },
      language_default: "en",
      branding_overrides: {},
      starter_prompts: ["Returns?"],
    });
    expect(reset.json().data.branding.display_mode).toBe("logo_and_label");
  });

  it("happy: unpublish makes init refuse the agent, publish brings it back", async () => {
    const unpublished = await call(admin, "POST", `/agents/${tenant.agentId}/unpublish`);
    expect(unpublished.statusCode, unpublished.body).toBe(200);
    expect(unpublished.json().data.published).toBe(false);
    // Live: the workspace's consoles hear it.
    const announced = t.published.filter((event) => event.type === "agent.updated" && event.agentId === tenant.agentId).at(-1);
    expect(announced).toBeDefined();
    expect(broadcastsOf(announced!)).toEqual([
      {
        channel: `private-workspace.${tenant.workspaceId}`,
        event: "agent.updated",
        payload: { agent_id: tenant.agentId, published: false, updated_at: unpublished.json().data.updated_at },
      },
    ]);
    const refused = await init(tenant.agentId);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe("agent_not_found");
    const published = await call(admin, "POST", `/agents/${tenant.agentId}/publish`);
    expect(published.json().data.published).toBe(true);
    expect((await init(tenant.agentId)).statusCode).toBe(200);
  });

  it("happy: the install snippet is the script tag of the README, with the origins it works on", async () => {
    const response = await call(agentRole, "GET", `/agents/${tenant.agentId}/snippet`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      agent_id: tenant.agentId,
      html: `<script src="${PUBLIC_URL}/widget.js" data-agent-id="${tenant.agentId}" async></script>`,
      script_url: `${PUBLIC_URL}/widget.js`,
      demo_url: `${PUBLIC_URL}/demo/${tenant.agentId}`,
      published: true,
      allowed_origins: [SITE_ORIGIN, "https://acme.example"],
    });
  });

  it("error: bad settings are 422 with the console's field names, and nothing changes", async () => {
    const before = (await call(admin, "GET", `/agents/${tenant.agentId}`)).json().data;
    const expectFields = async (payload: unknown, fields: string[], method: "POST" | "PATCH" = "PATCH") => {
      const response = await call(admin, method, method === "PATCH" ? `/agents/${tenant.agentId}` : "/agents", payload);
      expect(response.statusCode, response.body).toBe(422);
      expect(response.json().error.code).toBe("validation_failed");
      expect(Object.keys(response.json().error.fields).sort()).toEqual(fields);
    };
    await expectFields({ origins: ["not an origin", "https://ok.example/path"] }, ["origins"]);
    await expectFields({ primary_color: "blue", language: "English" }, ["language", "primary_color"]);
    await expectFields({}, ["name"]);
    await expectFields({ branding: { display_mode: "huge", colour: "red" } }, ["branding", "branding.display_mode"]);
    await expectFields({ name: "No site" }, ["site_url"], "POST");
    await expectFields({ name: "Bad", site_url: "ftp://files.example" }, ["site_url"], "POST");
    await expectFields({ name: "Bad origins", origins: ["*"] }, ["origins"], "POST");
    await call(admin, "PATCH", `/agents/${tenant.agentId}`, { vertical: "general" });
    const coupon = [{ id: "deal", trigger: { type: "exit_intent" }, action: { type: "cta", label: "Get 10%", url: "https://acme.example/deal", coupon: "SAVE10" } }];
    const refused = await call(admin, "PATCH", `/agents/${tenant.agentId}`, { behavior_rules: coupon });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.fields).toEqual({ "behavior_rules.0.action.coupon": [expect.stringContaining("e-commerce")] });
    expect(refused.json().error.message).not.toContain("--");
    const after = (await call(admin, "GET", `/agents/${tenant.agentId}`)).json().data;
    expect({ ...after, vertical: before.vertical, updated_at: before.updated_at }).toEqual(before);
  });

  it("security: an agent-role operator gets 403 forbidden on every admin write, whatever the body, and nothing changes", async () => {
    const before = (await call(admin, "GET", `/agents/${tenant.agentId}`)).json().data;
    const published = t.published.length;
    const writes: [method: "POST" | "PATCH", url: string, payload?: unknown][] = [
      ["POST", "/agents", { name: "Sneaky", site_url: "https://evil.example" }],
      ["POST", "/agents", { nonsense: true }],
      ["PATCH", `/agents/${tenant.agentId}`, { name: "Taken over" }],
      ["POST", `/agents/${tenant.agentId}/unpublish`],
      ["POST", `/agents/${tenant.agentId}/publish`],
    ];
    for (const [method, url, payload] of writes) {
      const response = await call(agentRole, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error.code).toBe("forbidden");
    }
    expect((await call(admin, "GET", `/agents/${tenant.agentId}`)).json().data).toEqual(before);
    expect((await call(admin, "GET", "/agents")).json().data.map((agent: { name: string }) => agent.name)).not.toContain("Sneaky");
    expect(t.published.length).toBe(published);
  });

  it("security: another workspace's agent is 404 agent_not_found for reads and writes, and never listed", async () => {
    for (const [method, url, payload] of [
      ["GET", `/agents/${tenant.agentId}`],
      ["GET", `/agents/${tenant.agentId}/snippet`],
      ["PATCH", `/agents/${tenant.agentId}`, { name: "Mine now" }],
      ["POST", `/agents/${tenant.agentId}/unpublish`],
    ] as const) {
      const response = await call(stranger, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error.code).toBe("agent_not_found");
    }
    expect((await call(stranger, "GET", "/agents")).json().data.map((agent: { id: string }) => agent.id)).toEqual([other.agentId]);
    expect((await call(admin, "GET", `/agents/${tenant.agentId}`)).json().data.name).toBe("Acme Helper");
  });

  it("security: no session is 401, a write without the public Origin is 403 csrf_origin_mismatch, a malformed id 422", async () => {
    expect((await call(null, "GET", "/agents")).statusCode).toBe(401);
    expect((await call(null, "POST", "/agents", { name: "x", site_url: "https://x.example" })).statusCode).toBe(401);
    const withoutPublicOrigin: Record<string, string>[] = [{ cookie: admin.headers.cookie }, { cookie: admin.headers.cookie, origin: "https://evil.example" }];
    for (const headers of withoutPublicOrigin) {
      const response = await call(admin, "PATCH", `/agents/${tenant.agentId}`, { name: "CSRF" }, headers);
      expect(response.statusCode).toBe(403);
      expect(response.json().error.code).toBe("csrf_origin_mismatch");
    }
    const malformed = await call(admin, "GET", "/agents/not%20an%20id");
    expect(malformed.statusCode).toBe(422);
    expect(Object.keys(malformed.json().error.fields)).toEqual(["params.id"]);
  });
});
