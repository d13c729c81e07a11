import type { CookieSerializeOptions } from "@fastify/cookie";
import type { Config } from "../config/config.js";
import { CONSOLE_PREFIX } from "./console-prefix.js";

/** The console session's cookie: only the console API receives it. */
export const SESSION_COOKIE_NAME = "frontdesk_console_session";

/** HttpOnly, SameSite=Lax, limited to the console API's path; Secure when the public URL is https. */
export function sessionCookieOptions(config: Config, expires: Date): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: "lax",
    secure: new URL(config.publicUrl).protocol === "https:",
    path: CONSOLE_PREFIX,
    expires,
  };
}

/** What clears the cookie (sign-out, or a session that has ended). */
export function expiredSessionCookieOptions(config: Config): CookieSerializeOptions {
  return { ...sessionCookieOptions(config, new Date(0)), maxAge: 0 };
}
