import { afterAll, beforeAll, expect, it } from "vitest";
import { createSignedInOperator, CONSOLE } from "../support/console-session.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { seedTenant, type Tenant } from "../support/seed.js";

describeEachStore("the console's operator guard on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services);
  });
  afterAll(() => t.close());

  it("happy: GET /me answers the operator of the session cookie", async () => {
    const { operator, headers } = await createSignedInOperator(t, { workspaceId: tenant.workspaceId, role: "agent", name: "Ana" });
    const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { id: operator.id, workspace_id: tenant.workspaceId, name: "Ana", email: operator.email, role: "agent" } });
  });

  it("error: no cookie, an unknown secret and a malformed one are 401 unauthenticated", async () => {
    for (const cookie of [undefined, `frontdesk_console_session=${"a".repeat(43)}`, "frontdesk_console_session=x"]) {
      const response = await t.app.inject({ method: "GET", url: `${CONSOLE}/me`, headers: cookie ? { cookie } : {} });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe("unauthenticated");
    }
  });
});
