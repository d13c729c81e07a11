import { describe, expect, it } from "vitest";
import { SESSION_TOKEN_LIFETIME_SECONDS, SessionTokens } from "../../src/auth/session-token.js";

// A token verified once is remembered (no second HMAC check): it must still expire on time, and
// nothing but that exact token may match what was remembered.
const subject = { agentId: "agt_1", visitorId: "vis_1", conversationId: "cnv_1" };

function tokensAt(start: number) {
  const clock = { now: start };
  return { clock, tokens: new SessionTokens("a-secret-of-thirty-two-characters!!", "frontdesk", () => clock.now) };
}

describe("session token verification, remembered", () => {
  it("happy: a token verified again gives the same claims", async () => {
    const { tokens } = tokensAt(Date.UTC(2026, 10, 24, 6, 0, 0));
    const { jwt } = await tokens.issue(subject);
    const first = await tokens.verify(jwt);
    expect(await tokens.verify(jwt)).toEqual(first);
    expect(first).toMatchObject({ agent_id: "agt_1", visitor_id: "vis_1", conversation_id: "cnv_1" });
  });

  it("error: a remembered token expires at its exp, to the second", async () => {
    const start = Date.UTC(2026, 10, 24, 6, 0, 0);
    const { clock, tokens } = tokensAt(start);
    const { jwt } = await tokens.issue(subject);
    await tokens.verify(jwt);
    clock.now = start + SESSION_TOKEN_LIFETIME_SECONDS * 1000 - 1;
    await expect(tokens.verify(jwt)).resolves.toMatchObject({ conversation_id: "cnv_1" });
    clock.now = start + SESSION_TOKEN_LIFETIME_SECONDS * 1000;
    await expect(tokens.verify(jwt)).rejects.toMatchObject({ code: "token_expired" });
  });

  it("security: a token differing from a remembered one in its signature or claims is checked, and refused", async () => {
    const { tokens } = tokensAt(Date.UTC(2026, 10, 24, 6, 0, 0));
    const { jwt } = await tokens.issue(subject);
    await tokens.verify(jwt);
    const [header, payload, signature] = jwt.split(".");
    const otherSignature = `${signature!.slice(0, -2)}${signature!.endsWith("AA") ? "BB" : "AA"}`;
    await expect(tokens.verify(`${header}.${payload}.${otherSignature}`)).rejects.toMatchObject({ code: "invalid_token" });
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, conversation_id: "cnv_2" })).toString("base64url");
    await expect(tokens.verify(`${header}.${otherPayload}.${signature}`)).rejects.toMatchObject({ code: "invalid_token" });
  });
});
