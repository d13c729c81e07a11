import { sessionClaimsSchema, type SessionClaims } from "@frontdesk/contracts";
import { randomUUID, webcrypto } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { AppError } from "../http/app-error.js";

export const SESSION_TOKEN_LIFETIME_SECONDS = 3600;
const ALGORITHM = "HS256";

export interface SessionSubject {
  agentId: string;
  visitorId: string;
  conversationId: string;
}

export interface IssuedSessionToken {
  jwt: string;
  expiresAt: Date;
}

/** Signs and verifies widget session tokens: HS256 only, every claim checked. */
export class SessionTokens {
  /** The HMAC key, imported once (jose would import a raw secret on every call). */
  private readonly key: Promise<webcrypto.CryptoKey>;

  constructor(secret: string, private readonly issuer: string, private readonly now: () => number = Date.now) {
    this.key = webcrypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  }

  async issue(subject: SessionSubject): Promise<IssuedSessionToken> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAt = issuedAt + SESSION_TOKEN_LIFETIME_SECONDS;
    const jwt = await new SignJWT({
      agent_id: subject.agentId,
      visitor_id: subject.visitorId,
      conversation_id: subject.conversationId,
    })
      .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
      .setIssuer(this.issuer)
      .setIssuedAt(issuedAt)
      .setJti(randomUUID())
      .setExpirationTime(expiresAt)
      .sign(await this.key);
    return { jwt, expiresAt: new Date(expiresAt * 1000) };
  }

  /** The token's claims, or an AppError with `invalid_token` or `token_expired`. */
  async verify(token: string): Promise<SessionClaims> {
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, await this.key, {
        algorithms: [ALGORITHM],
        issuer: this.issuer,
        requiredClaims: ["iss", "iat", "exp", "agent_id", "visitor_id", "conversation_id"],
        currentDate: new Date(this.now()),
        clockTolerance: 0,
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new AppError("token_expired", "The session token has expired; call init again.");
      throw new AppError("invalid_token", "The session token is not valid.");
    }
    const claims = sessionClaimsSchema.safeParse(payload);
    if (!claims.success) throw new AppError("invalid_token", "The session token is not valid.");
    if (claims.data.exp - claims.data.iat !== SESSION_TOKEN_LIFETIME_SECONDS) {
      throw new AppError("invalid_token", "The session token is not valid.");
    }
    return claims.data;
  }
}

/** The bearer credential of an Authorization header, or null when there is none. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
