/** The Settings page's cached answers: each section reads its own route. */
export const TOKENS_KEY = ["settings", "tokens"] as const;
export const OPERATORS_KEY = ["settings", "operators"] as const;
export const USAGE_KEY = ["settings", "usage"] as const;
