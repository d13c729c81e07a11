import { z } from "zod";
import { httpUrlSchema, isoTimestampSchema } from "./common.js";

/**
 * The answer model a workspace's admins choose in the console (issue 31, item 1): a provider, its
 * address and key, and a model; each agent then answers with it, the offline extractive answerer,
 * or another model of the same provider, under its own instructions.
 */
export const modelProviders = ["openai", "anthropic", "openai-compatible"] as const;
export type ModelProvider = (typeof modelProviders)[number];
export const modelProviderSchema = z.enum(modelProviders);

/** Local OpenAI-compatible servers the console offers as presets (their default addresses). */
export const openAiCompatiblePresets = [
  { id: "ollama", label: "Ollama", base_url: "http://localhost:11434/v1" },
  { id: "vllm", label: "vLLM", base_url: "http://localhost:8000/v1" },
  { id: "lm-studio", label: "LM Studio", base_url: "http://localhost:1234/v1" },
] as const;

export const MAX_MODEL_NAME_LENGTH = 200;
export const MAX_MODEL_API_KEY_LENGTH = 1000;
/** The agent's extra rules for the model, at most this many characters. */
export const MAX_ANSWER_RULES_LENGTH = 2000;

export const modelNameSchema = z
  .string()
  .trim()
  .min(1, "give a model name")
  .max(MAX_MODEL_NAME_LENGTH)
  .regex(/^[^\s]+$/, "a model name has no spaces (e.g. gpt-4o-mini, llama3.1:8b)");

/** `default`: the workspace's provider and model, else the instance's; `extractive`: the offline answerer; else a model name on the workspace's provider. */
export const answerModelSchema = modelNameSchema.describe(
  "`default` (the workspace's model provider and model, else the instance's configured generator), `extractive` (the offline extractive answerer, no model), or a model name on the workspace's provider.",
);

export const answerLengths = ["short", "medium", "long"] as const;
export type AnswerLength = (typeof answerLengths)[number];
/** `offer_person`: an unsure answer must offer a person from the team; `say_unknown`: it may just say it does not know. */
export const unsureBehaviors = ["offer_person", "say_unknown"] as const;
export type UnsureBehavior = (typeof unsureBehaviors)[number];

export const answerInstructionsSchema = z
  .object({
    rules: z.string().trim().max(MAX_ANSWER_RULES_LENGTH).describe(`Extra rules for the model, in the site owner's words (at most ${MAX_ANSWER_RULES_LENGTH} characters; empty: none).`),
    length: z.enum(answerLengths).describe("How long answers are: `short` (a sentence or two), `medium` (a few sentences), `long` (a detailed answer)."),
    when_unsure: z.enum(unsureBehaviors).describe("When the knowledge does not hold the answer: `offer_person` (say so and offer a person) or `say_unknown` (say so; a person only when asked)."),
  })
  .strict();
export type AnswerInstructions = z.infer<typeof answerInstructionsSchema>;

export const DEFAULT_ANSWER_INSTRUCTIONS: AnswerInstructions = { rules: "", length: "medium", when_unsure: "offer_person" };

/** A workspace's model provider as the console reads it: never its key, only whether one is set and its last 4 characters. */
export const workspaceModelProviderSchema = z.object({
  provider: modelProviderSchema,
  base_url: z.string().nullable().describe("The provider's API address (null: the provider's own, for `openai` and `anthropic`)."),
  model: z.string().describe("The model the workspace's agents answer with by default."),
  api_key_set: z.boolean().describe("Whether an API key is stored (it is never returned)."),
  api_key_last4: z.string().nullable().describe("The stored key's last 4 characters, to recognise it."),
  updated_at: isoTimestampSchema,
});
export type WorkspaceModelProvider = z.infer<typeof workspaceModelProviderSchema>;

export const modelProviderSettingsResponseSchema = z.object({
  data: z.object({
    workspace: workspaceModelProviderSchema.nullable().describe("The workspace's provider; null: its agents use the instance's."),
    instance_default: z
      .object({ provider: z.enum(["extractive", "openai", "anthropic"]), model: z.string().nullable() })
      .describe("What the instance's environment configures (FRONTDESK_LLM_*), used when the workspace sets no provider."),
  }),
});
export type ModelProviderSettingsResponse = z.infer<typeof modelProviderSettingsResponseSchema>;

const modelProviderFields = {
  provider: modelProviderSchema,
  base_url: httpUrlSchema.nullable().optional().describe("Required for `openai-compatible` (e.g. http://localhost:11434/v1 for Ollama); optional for the others."),
  model: modelNameSchema,
  api_key: z.string().trim().min(1).max(MAX_MODEL_API_KEY_LENGTH).nullable().optional().describe("Absent: the stored key is kept (same provider); null: removed; required for `openai` and `anthropic`."),
};

function requireCompatibleBaseUrl(body: { provider: ModelProvider; base_url?: string | null | undefined }, context: z.RefinementCtx): void {
  if (body.provider === "openai-compatible" && (body.base_url === undefined || body.base_url === null)) {
    context.addIssue({ code: "custom", path: ["base_url"], message: "an openai-compatible provider needs its base URL" });
  }
}

/** PUT /api/v1/console/workspace/model-provider. */
export const putModelProviderBodySchema = z.object(modelProviderFields).strict().superRefine(requireCompatibleBaseUrl);
export type PutModelProviderBody = z.infer<typeof putModelProviderBodySchema>;

/** POST /api/v1/console/workspace/model-provider/test: the stored settings (empty body), or these unsaved ones. */
export const testModelProviderBodySchema = z
  .object({
    provider: modelProviderFields.provider.optional(),
    base_url: modelProviderFields.base_url,
    model: modelProviderFields.model.optional(),
    api_key: modelProviderFields.api_key,
  })
  .strict()
  .superRefine((body, context) => {
    if (body.provider === undefined) {
      if (body.model !== undefined || body.base_url !== undefined || body.api_key !== undefined) {
        context.addIssue({ code: "custom", path: ["provider"], message: "give the provider with unsaved settings" });
      }
      return;
    }
    if (body.model === undefined) context.addIssue({ code: "custom", path: ["model"], message: "give a model name" });
    requireCompatibleBaseUrl({ provider: body.provider, base_url: body.base_url }, context);
  });
export type TestModelProviderBody = z.infer<typeof testModelProviderBodySchema>;

export const testModelProviderResponseSchema = z.object({
  data: z.object({
    ok: z.boolean().describe("Whether the provider answered the one small request."),
    generator: z.string().describe("What was called, e.g. `openai-compatible:llama3.1`."),
    latency_ms: z.number().int(),
    reply: z.string().nullable().describe("The start of the model's reply, when it answered."),
    error: z
      .object({
        status: z.number().int().nullable().describe("The provider's HTTP status (null: no answer, e.g. refused or timed out)."),
        message: z.string().describe("The provider's own error message, or why no answer came."),
        body_excerpt: z.string().nullable().describe("The start of the provider's answer body."),
      })
      .nullable(),
  }),
});
export type TestModelProviderResponse = z.infer<typeof testModelProviderResponseSchema>;
