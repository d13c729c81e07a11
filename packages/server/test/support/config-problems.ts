import { ConfigError, loadConfig } from "../../src/config/config.js";

/** The configuration problems an environment gives (each naming its variable), or [] when it loads. */
export function problemsOf(environment: Record<string, string>): string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
