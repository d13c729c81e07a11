import type { Config } from "../config/config.js";

/** The origin of FRONTDESK_PUBLIC_URL: the only one the console's browser code runs on. */
export function publicOrigin(config: Config): string {
  return new URL(config.publicUrl).origin;
}
