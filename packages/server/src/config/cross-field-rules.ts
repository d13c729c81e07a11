import { ENV_PREFIX, type Env } from "./env-schema.js";

/**
 * Settings that are valid one by one but cannot work together, each named by the variable to set.
 * Checked when the configuration is read, so a start that could never work stops at once (exit 78)
 * instead of failing later inside the service.
 */
export function crossFieldProblems(env: Env): string[] {
  const problems: string[] = [];
  const need = (variable: keyof Env, because: string) => {
    if (env[variable] === undefined) problems.push(`${ENV_PREFIX}${variable}: required ${because}`);
  };
  if (env.LLM_PROVIDER !== "extractive") need("LLM_MODEL", `when ${ENV_PREFIX}LLM_PROVIDER is ${env.LLM_PROVIDER} (the model to ask)`);
  if (env.EMBEDDINGS_PROVIDER === "openai") {
    need("EMBEDDINGS_BASE_URL", `when ${ENV_PREFIX}EMBEDDINGS_PROVIDER is openai (the OpenAI-compatible server)`);
    need("EMBEDDINGS_MODEL", `when ${ENV_PREFIX}EMBEDDINGS_PROVIDER is openai (the embedding model's name)`);
  }
  if (env.PUBLIC_URL === undefined && !URL.canParse(`http://${env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST}:${env.PORT}`)) {
    problems.push(`${ENV_PREFIX}HOST: '${env.HOST}' is not a host name or IP address (it also makes the default ${ENV_PREFIX}PUBLIC_URL)`);
  }
  return problems;
}
