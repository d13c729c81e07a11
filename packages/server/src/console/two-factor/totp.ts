import { generate, generateSecret, generateURI, verify } from "otplib";
import { loadOnFirstUse } from "../../startup/load-on-first-use.js";

const loadQrcode = loadOnFirstUse(() => import("qrcode"));

/** RFC 6238's defaults, which every authenticator app reads: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is accepted (a phone's clock a little off, a code typed as it changed). */
const TOLERANCE_SECONDS = PERIOD_SECONDS;
/** What the authenticator app shows as the account's issuer. */
const ISSUER = "Frontdesk";

/** A new authenticator secret: 20 random bytes (160 bits, RFC 4226's recommendation), in base32. */
export const newTotpSecret = (): string => generateSecret();

/** The otpauth:// URI an authenticator app reads (from the QR code or typed). */
export const totpUri = (secret: string, email: string): string => generateURI({ issuer: ISSUER, label: email, secret });

/** The URI as a QR code: an SVG data URL (the console's policy allows `img-src data:`). */
export async function totpQrCode(uri: string): Promise<string> {
  const { toString: qrCodeSvg } = await loadQrcode();
  const svg = await qrCodeSvg(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/**
 * The time step of `code` when it is the secret's code at `now` (one step either side), and of a
 * step after `afterTimeStep` (the last one accepted: a code is never accepted twice); else null.
 */
export async function totpTimeStepOf(secret: string, code: string, now: Date, afterTimeStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

/** The secret's code at `at` (what an authenticator app shows then): for tests and the docs' examples. */
export const totpCodeAt = (secret: string, at: Date): Promise<string> => generate({ secret, epoch: Math.floor(at.getTime() / 1000) });
