import { APICallError, type LanguageModelV3Content } from "@ai-sdk/provider";
import type { TestModelProviderResponse } from "@frontdesk/contracts";
import { describeRequestFailure } from "../../network/outbound-request.js";
import type { ModelProviderNetwork } from "./model-provider-network.js";
import { workspaceLanguageModel, workspaceModelId, type WorkspaceModelSettings } from "./workspace-model.js";

type TestResult = TestModelProviderResponse["data"];

/** The start of a provider's answer the console shows. */
const EXCERPT_CHARACTERS = 500;

const excerpt = (text: string): string => (text.length > EXCERPT_CHARACTERS ? `${text.slice(0, EXCERPT_CHARACTERS)}…` : text);

function textOf(content: readonly LanguageModelV3Content[]): string {
  return content.map((part) => (part.type === "text" ? part.text : "")).join("").trim();
}

/** The provider's own words when it answered with an error; why no answer came otherwise. */
function failureOf(error: unknown, timedOut: boolean, timeoutMs: number): NonNullable<TestResult["error"]> {
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    return { status: error.statusCode, message: error.message, body_excerpt: error.responseBody === undefined ? null : excerpt(error.responseBody) };
  }
  // A refused address or a connection that failed is wrapped by the SDK: the cause says why.
  const cause = APICallError.isInstance(error) && error.cause !== undefined ? error.cause : error;
  return { status: null, message: describeRequestFailure(cause, timedOut, timeoutMs), body_excerpt: null };
}

/**
 * The console's "Test" button: ONE small real request to the provider (a one-word reply, a few
 * tokens at most), through the guarded network, within the answer timeout. Never throws: the
 * provider's status, message and the start of its body come back as they were, for the admin to read.
 */
export async function testModelProvider(network: ModelProviderNetwork, settings: WorkspaceModelSettings, timeoutMs: number): Promise<TestResult> {
  const generator = workspaceModelId(settings);
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const model = workspaceLanguageModel(settings, network.fetch);
    const result = await model.doGenerate({
      prompt: [
        { role: "system", content: "You are being tested. Reply with the single word OK." },
        { role: "user", content: [{ type: "text", text: "Reply with OK." }] },
      ],
      maxOutputTokens: 16,
      abortSignal: deadline,
    });
    return { ok: true, generator, latency_ms: elapsed(), reply: excerpt(textOf(result.content)), error: null };
  } catch (error) {
    return { ok: false, generator, latency_ms: elapsed(), reply: null, error: failureOf(error, deadline.aborted, timeoutMs) };
  }
}
