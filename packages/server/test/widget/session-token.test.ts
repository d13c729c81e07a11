import { base64url, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestApp, TEST_JWT_SECRET, type TestApp } from "../support/test-app.js";
import { describeEachStore } from "../support/test-database.js";
import { bearer, seedTenant, startSession, type StartedSession, type Tenant } from "../support/seed.js";

const EVENTS = "/api/v1/widget/events";
const key = new TextEncoder().encode(TEST_JWT_SECRET);

describeEachStore("session token verification on %s", (kind) => {
  let t: TestApp;
  let tenant: Tenant;
  let session: StartedSession;

  beforeAll(async () => {
    t = await createTestApp(kind);
    tenant = await seedTenant(t.services);
    session = await startSession(t.app, tenant.agentId);
  });
  afterAll(() => t.close());

  const callWith = (headers: Record<string, string>) =>
    t.app.inject({ method: "POST", url: EVENTS, headers, payload: { event: "cta.click" } });
  const claims = () => ({ agent_id: tenant.agentId, visitor_id: session.visitorId, conversation_id: session.conversationId });
  const sign = (payload: Record<string, unknown>, options: { iss?: string; iat?: number; exp?: number; secret?: Uint8Array } = {}) => {
    const iat = options.iat ?? Math.floor(Date.now() / 1000);
    return new SignJWT(payload)
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(options.iss ?? "frontdesk")
      .setIssuedAt(iat)
      .setExpirationTime(options.exp ?? iat + 3600)
      .sign(options.secret ?? key);
  };

  it("happy: the token from init is accepted, with HS256 and the spec's claims", async () => {
    expect((await callWith(bearer(session.jwt))).statusCode).toBe(202);
    const [header, payload] = session.jwt.split(".").slice(0, 2).map((part) => JSON.parse(new TextDecoder().decode(base64url.decode(part!))));
    expect(header.alg).toBe("HS256");
    expect(payload).toMatchObject({ iss: "frontdesk", ...claims() });
    expect(payload.exp - payload.iat).toBe(3600);
  });

  it("error: no Authorization header is 401 missing_token", async () => {
    const response = await callWith({});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { code: "missing_token", message: expect.any(String) } });
  });

  it("error: a non-bearer Authorization header is 401 missing_token", async () => {
    expect((await callWith({ authorization: `Basic ${session.jwt}` })).json().error.code).toBe("missing_token");
  });

  it("error: garbage is 401 invalid_token", async () => {
    const response = await callWith(bearer("not.a.jwt"));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("invalid_token");
  });

  it("security: a token signed with another secret is invalid_token", async () => {
    const forged = await sign(claims(), { secret: new TextEncoder().encode("another-secret-another-secret-another-secret") });
    expect((await callWith(bearer(forged))).json().error.code).toBe("invalid_token");
  });

  it("security: alg none is rejected", async () => {
    const unsigned = new UnsecuredJWT(claims()).setIssuer("frontdesk").setIssuedAt().setExpirationTime("1h").encode();
    expect((await callWith(bearer(unsigned))).json().error.code).toBe("invalid_token");
  });

  it("security: HS512 with the right secret is still rejected (algorithm pinned)", async () => {
    const iat = Math.floor(Date.now() / 1000);
    const hs512 = await new SignJWT(claims()).setProtectedHeader({ alg: "HS512" }).setIssuer("frontdesk").setIssuedAt(iat).setExpirationTime(iat + 3600).sign(key);
    expect((await callWith(bearer(hs512))).json().error.code).toBe("invalid_token");
  });

  it("security: tampered claims break the signature", async () => {
    const [header, payload, signature] = session.jwt.split(".");
    const decoded = JSON.parse(new TextDecoder().decode(base64url.decode(payload!)));
    decoded.conversation_id = "cnv_someoneelse";
    const tampered = `${header}.${base64url.encode(JSON.stringify(decoded))}.${signature}`;
    expect((await callWith(bearer(tampered))).json().error.code).toBe("invalid_token");
  });

  it("error: an expired token is 401 token_expired", async () => {
    const iat = Math.floor(Date.now() / 1000) - 7200;
    const expired = await sign(claims(), { iat, exp: iat + 3600 });
    const response = await callWith(bearer(expired));
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe("token_expired");
  });

  it("error: init's own token expires after 60 minutes", async () => {
    t.clock.offsetMs = 3601_000;
    try {
      expect((await callWith(bearer(session.jwt))).json().error.code).toBe("token_expired");
    } finally {
      t.clock.offsetMs = 0;
    }
  });

  it("security: the wrong issuer is invalid_token", async () => {
    expect((await callWith(bearer(await sign(claims(), { iss: "someone-else" })))).json().error.code).toBe("invalid_token");
  });

  it.each(["agent_id", "visitor_id", "conversation_id"])("security: a token without %s is invalid_token", async (claim) => {
    const partial: Record<string, unknown> = claims();
    delete partial[claim];
    expect((await callWith(bearer(await sign(partial)))).json().error.code).toBe("invalid_token");
  });

  it("security: a validly signed token whose conversation belongs to another agent is invalid_token", async () => {
    const other = await seedTenant(t.services);
    const mismatched = await sign({ ...claims(), agent_id: other.agentId });
    expect((await callWith(bearer(mismatched))).json().error.code).toBe("invalid_token");
  });

  it("security: a validly signed token for a conversation that does not exist is invalid_token", async () => {
    expect((await callWith(bearer(await sign({ ...claims(), conversation_id: "cnv_missing" })))).json().error.code).toBe("invalid_token");
  });

  it("security: a token of another visitor's id is invalid_token", async () => {
    expect((await callWith(bearer(await sign({ ...claims(), visitor_id: "vis_other" })))).json().error.code).toBe("invalid_token");
  });
});
