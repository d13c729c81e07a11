import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { SESSION_TOKEN_LIFETIME_SECONDS, SessionTokens } from "../../src/auth/session-token.js";

const SECRET = "a-session-secret-of-thirty-two-bytes!";
const ISSUER = "https://frontdesk.test";
const subject = { agentId: "agt_1", visitorId: "vis_1", conversationId: "cnv_1" };

describe("SessionTokens", () => {
  it("happy: an issued token is an HS256 JWT that jose verifies with the secret, with every claim", async () => {
    const now = 1_800_000_000_000;
    const tokens = new SessionTokens(SECRET, ISSUER, () => now);
    const { jwt, expiresAt } = await tokens.issue(subject);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: "HS256", typ: "JWT" });
    const { payload } = await jwtVerify(jwt, new TextEncoder().encode(SECRET), { algorithms: ["HS256"], issuer: ISSUER, currentDate: new Date(now) });
    expect(payload).toEqual({
      agent_id: "agt_1",
      visitor_id: "vis_1",
      conversation_id: "cnv_1",
      iss: ISSUER,
      iat: now / 1000,
      exp: now / 1000 + SESSION_TOKEN_LIFETIME_SECONDS,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(expiresAt.getTime()).toBe(now + SESSION_TOKEN_LIFETIME_SECONDS * 1000);
    expect(await tokens.verify(jwt)).toMatchObject({ agent_id: "agt_1", visitor_id: "vis_1", conversation_id: "cnv_1" });
  });

  it("happy: the process that issued a token knows it (no HMAC check); another process verifies it, with the same claims", async () => {
    const now = 1_800_000_000_000;
    const issuer = new SessionTokens(SECRET, ISSUER, () => now);
    const { jwt } = await issuer.issue(subject);
    const here = await issuer.verify(jwt);
    const elsewhere = await new SessionTokens(SECRET, ISSUER, () => now).verify(jwt);
    expect(here).toEqual(elsewhere);
    expect(here).toEqual({ agent_id: "agt_1", visitor_id: "vis_1", conversation_id: "cnv_1", iss: ISSUER, iat: now / 1000, exp: now / 1000 + SESSION_TOKEN_LIFETIME_SECONDS });
    // Another issuer's instance refuses it, whatever this one remembers.
    await expect(new SessionTokens(SECRET, "https://elsewhere.test", () => now).verify(jwt)).rejects.toMatchObject({ code: "invalid_token" });
  });

  it("happy: each token has its own jti", async () => {
    const tokens = new SessionTokens(SECRET, ISSUER);
    const [first, second] = await Promise.all([tokens.issue(subject), tokens.issue(subject)]);
    expect(first.jwt).not.toBe(second.jwt);
  });

  it("security: a token signed with another secret, or with a changed claim, is refused", async () => {
    const tokens = new SessionTokens(SECRET, ISSUER);
    const other = await new SessionTokens(`${SECRET}-other`, ISSUER).issue(subject);
    await expect(tokens.verify(other.jwt)).rejects.toMatchObject({ code: "invalid_token" });
    const { jwt } = await tokens.issue(subject);
    const [header, payload, signature] = jwt.split(".");
    const changed = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), conversation_id: "cnv_2" })).toString("base64url");
    await expect(tokens.verify(`${header}.${changed}.${signature}`)).rejects.toMatchObject({ code: "invalid_token" });
  });

  it("error: an expired token is refused as token_expired", async () => {
    let now = 1_800_000_000_000;
    const tokens = new SessionTokens(SECRET, ISSUER, () => now);
    const { jwt } = await tokens.issue(subject);
    now += SESSION_TOKEN_LIFETIME_SECONDS * 1000;
    await expect(tokens.verify(jwt)).rejects.toMatchObject({ code: "token_expired" });
    // The same where it was not issued (jose's check rather than the remembered claims).
    await expect(new SessionTokens(SECRET, ISSUER, () => now).verify(jwt)).rejects.toMatchObject({ code: "token_expired" });
  });
});
