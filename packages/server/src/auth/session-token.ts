import { sessionClaimsSchema, type SessionClaims } from "@frontdesk/contracts";
import { createHmac, createSecretKey, randomUUID, webcrypto, type KeyObject } from "node:crypto";
import { errors as joseErrors, jwtVerify } from "jose";
import { LRUCache } from "lru-cache";
import { AppError } from "../http/app-error.js";

export const SESSION_TOKEN_LIFETIME_SECONDS = 3600;
const ALGORITHM = "HS256";
/** Verified tokens remembered (about 0.5 KB each). */
const VERIFIED_TOKENS_KEPT = 20_000;
/** The protected header of every token, base64url-encoded once. */
const ENCODED_HEADER = Buffer.from(JSON.stringify({ alg: ALGORITHM, typ: "JWT" })).toString("base64url");

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
  /** The HMAC key for verifying, imported once (jose would import a raw secret on every call). */
  private readonly key: Promise<webcrypto.CryptoKey>;
  /**
   * Tokens that verified, with their claims: a visitor's next question does not check the HMAC
   * and parse the token again (under 500 streams that was 5 % of the event loop). Keyed by the
   * whole token, signature included, so only a token that verified is ever found here; its expiry
   * is checked at every use.
   */
  private readonly verified = new LRUCache<string, SessionClaims>({ max: VERIFIED_TOKENS_KEPT });
  /** The same key for signing with node:crypto: synchronous, no WebCrypto job per token (init signs one each). */
  private readonly signingKey: KeyObject;

  constructor(secret: string, private readonly issuer: string, private readonly now: () => number = Date.now) {
    const bytes = new TextEncoder().encode(secret);
    this.key = webcrypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    this.signingKey = createSecretKey(bytes);
  }

  /** An HS256 JWS (RFC 7515 compact form) of the session's claims, valid for an hour. */
  async issue(subject: SessionSubject): Promise<IssuedSessionToken> {
    const issuedAt = Math.floor(this.now() / 1000);
    const expiresAt = issuedAt + SESSION_TOKEN_LIFETIME_SECONDS;
    const claims = {
      agent_id: subject.agentId,
      visitor_id: subject.visitorId,
      conversation_id: subject.conversationId,
      iss: this.issuer,
      iat: issuedAt,
      jti: randomUUID(),
      exp: expiresAt,
    };
    const signingInput = `${ENCODED_HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
    const signature = createHmac("sha256", this.signingKey).update(signingInput).digest("base64url");
    const jwt = `${signingInput}.${signature}`;
    // Signed here, so valid by construction: the visitor's first question need not check it (when
    // it reaches this process; another one verifies it as any token).
    const { jti: _jti, ...remembered } = claims;
    this.verified.set(jwt, remembered);
    return { jwt, expiresAt: new Date(expiresAt * 1000) };
  }

  /** The token's claims, or an AppError with `invalid_token` or `token_expired`. */
  async verify(token: string): Promise<SessionClaims> {
    const known = this.verified.get(token);
    if (known) {
      // As jose decides it: expired once `exp` is not after the current second.
      if (known.exp <= Math.floor(this.now() / 1000)) throw new AppError("token_expired", "The session token has expired; call init again.");
      return known;
    }
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
    this.verified.set(token, claims.data);
    return claims.data;
  }
}

/** The bearer credential of an Authorization header, or null when there is none. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
