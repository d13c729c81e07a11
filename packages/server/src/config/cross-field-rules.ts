import { ENV_PREFIX, type Env } from "./env-schema.js";
import { inboundMailProblems } from "./inbound-mail.js";
import { mailProblems } from "./mail.js";
import { vapidKeyProblems } from "./push.js";

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
  if (env.REALTIME_DRIVER === "pusher") {
    need("REALTIME_APP_SECRET", `when ${ENV_PREFIX}REALTIME_DRIVER is pusher (the external server's app secret: it signs the subscriptions this service authorises and its HTTP API requests)`);
  } else if (env.REALTIME_APP_SECRET !== undefined && env.REALTIME_APP_SECRET.length < 32) {
    problems.push(`${ENV_PREFIX}REALTIME_APP_SECRET: must be at least 32 characters (the embedded realtime server's secret; unset, one is generated)`);
  }
  if (env.REALTIME_API_URL !== undefined && !/^\/?$/.test(new URL(env.REALTIME_API_URL).pathname + new URL(env.REALTIME_API_URL).search)) {
    problems.push(`${ENV_PREFIX}REALTIME_API_URL: must name only a scheme, host and port (the Pusher HTTP API is at /apps/{app_id} on the server's root)`);
  }
  if (env.PUBLIC_URL === undefined && !URL.canParse(`http://${env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST}:${env.PORT}`)) {
    problems.push(`${ENV_PREFIX}HOST: '${env.HOST}' is not a host name or IP address (it also makes the default ${ENV_PREFIX}PUBLIC_URL)`);
  }
  problems.push(...mailProblems(env));
  problems.push(...inboundMailProblems(env));
  problems.push(...vapidKeyProblems(env));
  return problems;
}
