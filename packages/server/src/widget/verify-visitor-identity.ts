import { createHmac, timingSafeEqual } from "node:crypto";
import type { InitBody } from "@frontdesk/contracts";
import { AppError } from "../http/app-error.js";
import type { Agent } from "../tenants/agent.js";
import type { IdentitySecretBox } from "../tenants/identity-secret-box.js";

/** A user the site vouched for: its id, verified, and the e-mail and name it sent along. */
export interface VerifiedIdentity {
  userId: string;
  email: string | null;
  name: string | null;
}

/** `user_hash` as the site computes it: lowercase hex HMAC-SHA256 of the id's UTF-8 bytes under the secret. */
export function identityHash(secret: string, userId: string): string {
  return createHmac("sha256", secret).update(userId, "utf8").digest("hex");
}

const invalid = () => new AppError("identity_invalid", "The visitor's identity does not verify: user_hash must be the HMAC-SHA256 of user_id under the agent's identity secret, in lowercase hex.");

/**
 * Init's identity check, by the agent's mode. `off`: the fields are ignored (anonymous visitor).
 * A claimed identity (`user_id` or `user_hash` given) must verify: both present, the agent has a
 * secret, and the hash is the expected one, compared in constant time over equal lengths (a
 * length mismatch says only that it is not 64 characters, which the docs say anyway); anything
 * else is 401 `identity_invalid`, the same for every reason. No claim: anonymous, unless the mode
 * is `required` (401 `identity_required`). The hash covers the id only: it is a bearer credential
 * for that id, as long as the secret is not rotated.
 */
export function verifyVisitorIdentity(agent: Agent, body: InitBody, box: IdentitySecretBox): VerifiedIdentity | null {
  if (agent.identityMode === "off") return null;
  const { user_id: userId, user_hash: userHash } = body;
  if (userId === undefined && userHash === undefined) {
    if (agent.identityMode === "required") throw new AppError("identity_required", "This agent talks to signed-in users only: init needs user_id and user_hash.");
    return null;
  }
  if (userId === undefined || userHash === undefined || agent.identitySecretSealed === null) throw invalid();
  const secret = box.open(agent.identitySecretSealed, agent.id);
  if (secret === null) throw invalid();
  const expected = Buffer.from(identityHash(secret, userId), "utf8");
  const given = Buffer.from(userHash, "utf8");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  return { userId, email: body.email ?? null, name: body.name ?? null };
}
