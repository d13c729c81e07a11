import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdminCommand } from "../../src/admin/run-admin-command.js";
import { admitAgent } from "../../src/widget/admit-agent.js";
import { adminOf, SITE_ORIGIN, seedTenant, type Tenant } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";

const W = "/api/v1/widget";
const PUBLIC_URL = "http://frontdesk.test:8080";

/** POST /init and POST /rules admit a page by one function: the same agent, the same origins, the same refusals. */
describeEachStore("admitting a page to an agent (init and rules) on %s", (kind) => {
  for (const demo of ["true", "false"]) {
    describe(`FRONTDESK_DEMO=${demo}`, () => {
      let t: TestApp;
      let tenant: Tenant;
      let draft: Tenant;
      let wildcard: Tenant;

      beforeAll(async () => {
        t = await createTestApp(kind, {
          FRONTDESK_DEMO: demo,
          FRONTDESK_PUBLIC_URL: PUBLIC_URL,
          FRONTDESK_RATE_LIMIT_INIT_PER_MINUTE: "1000",
          FRONTDESK_RATE_LIMIT_RULES_PER_MINUTE: "1000",
        });
        tenant = await seedTenant(t.services);
        draft = await seedTenant(t.services, { draft: true });
        wildcard = await seedTenant(t.services, { origins: ["https://*.example.org"] });
      });
      afterAll(() => t.close());

      const call = (path: "/init" | "/rules", agentId: string, origin: string | null) =>
        t.app.inject({
          method: "POST",
          url: `${W}${path}`,
          headers: origin === null ? {} : { origin },
          payload: { agent_id: agentId, page_url: `${SITE_ORIGIN}/` },
        });
      const both = async (agentId: string, origin: string | null) => {
        const [init, rules] = [await call("/init", agentId, origin), await call("/rules", agentId, origin)];
        return { init: { status: init.statusCode, error: init.json().error ?? null }, rules: { status: rules.statusCode, error: rules.json().error ?? null } };
      };
      const refused = (status: number, code: string) => ({ status, error: { code, message: expect.any(String) } });
      const admitted = { status: 200, error: null };

      it("happy: an allowed origin, exact or by a subdomain wildcard, is admitted by both", async () => {
        expect(await both(tenant.agentId, SITE_ORIGIN)).toEqual({ init: admitted, rules: admitted });
        expect(await both(wildcard.agentId, "https://shop.eu.example.org")).toEqual({ init: admitted, rules: admitted });
      });

      it("error: an unknown agent and a draft agent are 404 agent_not_found on both, whatever the origin", async () => {
        for (const agentId of ["agt_doesnotexist", draft.agentId]) {
          for (const origin of [SITE_ORIGIN, "https://evil.example.net"]) {
            expect(await both(agentId, origin)).toEqual({ init: refused(404, "agent_not_found"), rules: refused(404, "agent_not_found") });
          }
        }
      });

      it("security: another origin, no Origin at all, and a wildcard's bare domain are 403 origin_forbidden on both", async () => {
        const forbidden = { init: refused(403, "origin_forbidden"), rules: refused(403, "origin_forbidden") };
        expect(await both(tenant.agentId, "https://evil.example.net")).toEqual(forbidden);
        expect(await both(tenant.agentId, null)).toEqual(forbidden);
        expect(await both(wildcard.agentId, "https://example.org")).toEqual(forbidden);
      });

      it(`${demo === "true" ? "happy" : "security"}: the service's own origin (the demo page) is ${demo === "true" ? "admitted" : "refused"} by both`, async () => {
        const expected = demo === "true" ? admitted : refused(403, "origin_forbidden");
        expect(await both(tenant.agentId, PUBLIC_URL)).toEqual({ init: expected, rules: expected });
      });

      it("happy: admitAgent reads the agent through the session cache; unpublishing (which drops the entry) refuses at once", async () => {
        const input = { agentId: tenant.agentId, origin: SITE_ORIGIN, serviceOrigins: [] };
        const admittedAgent = await admitAgent(t.services, input);
        expect(admittedAgent.agent.id).toBe(tenant.agentId);
        expect(t.services.sessionCache.getAgent(tenant.agentId)).toBe(admittedAgent);
        const other = await seedTenant(t.services);
        expect((await admitAgent(t.services, { ...input, agentId: other.agentId })).agent.published).toBe(true);
        await runAdminCommand(adminOf(t.services), { command: "agent.unpublish", agentId: other.agentId });
        await expect(admitAgent(t.services, { ...input, agentId: other.agentId })).rejects.toMatchObject({ code: "agent_not_found", status: 404 });
        await expect(admitAgent(t.services, { ...input, origin: "https://evil.example.net" })).rejects.toMatchObject({ code: "origin_forbidden", status: 403 });
        await expect(admitAgent(t.services, { ...input, origin: PUBLIC_URL, serviceOrigins: [PUBLIC_URL] })).resolves.toBe(admittedAgent);
      });
    });
  }
});
