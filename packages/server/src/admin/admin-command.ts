import { agentSettingSchemas, identityModeSchema, userIdSchema, answerTestQuestionSchema, answerTestTextSchema, answerTestUrlSchema, changeWorkspaceEmbeddingsBodySchema, httpUrlSchema, MAX_MODEL_API_KEY_LENGTH, modelNameSchema, modelProviderSchema, webhookEventTypeSchema } from "@frontdesk/contracts";
import { z } from "zod";
import { API_TOKEN_ABILITIES } from "../tenants/create-api-token.js";
import { OPERATOR_ROLES } from "../tenants/operators.js";

const id = z.string().min(1).max(64);

/** The rules of every agent setting, shared with the console's agent routes (contracts/console-agents.ts). */
const agentField = agentSettingSchemas;

/** The settings `agent.update` may change; absent: unchanged; null: back to the default. */
const AGENT_UPDATE_FIELDS = ["name", "origins", "vertical", "personaName", "tone", "primaryColor", "starterPrompts", "language", "behaviorRules", "branding", "officeHours", "awayMessage", "replyTime", "answerModel", "instructions", "identityMode", "routing"] as const;

/** A visitor named by their id, or by an agent and the site's verified user id for them (`--agent A --user-id U`). */
function visitorCommand<Name extends string>(name: Name) {
  return z
    .object({ command: z.literal(name), workspaceId: id, visitorId: id.optional(), agentId: id.optional(), userId: userIdSchema.optional() })
    .refine((command) => (command.visitorId !== undefined) !== (command.agentId !== undefined && command.userId !== undefined), {
      message: "give --visitor, or --agent with --user-id",
      path: ["visitorId"],
    });
}

/** Every admin operation, as the CLI sends it (directly or over the admin socket). */
export const adminCommandSchema = z.discriminatedUnion("command", [
  z.object({ command: z.literal("migrate") }),
  z.object({ command: z.literal("reindex"), agentId: id.optional() }),
  z.object({
    command: z.literal("workspace.create"),
    name: z.string().trim().min(1).max(200),
    conversationQuota: z.number().int().min(0).nullable().default(null),
  }),
  z.object({ command: z.literal("workspace.list") }),
  z.object({
    command: z.literal("agent.create"),
    workspaceId: id,
    name: agentField.name,
    origins: agentField.origins,
    vertical: agentField.vertical.default("general"),
    draft: z.boolean().default(false),
    personaName: agentField.personaName.optional(),
    tone: agentField.tone.optional(),
    primaryColor: agentField.primaryColor.optional(),
    starterPrompts: agentField.starterPrompts.default([]),
    language: agentField.language.optional(),
  }),
  z
    .object({
      command: z.literal("agent.update"),
      agentId: id,
      name: agentField.name.optional(),
      origins: agentField.origins.optional(),
      vertical: agentField.vertical.optional(),
      personaName: agentField.personaName.nullable().optional(),
      tone: agentField.tone.nullable().optional(),
      primaryColor: agentField.primaryColor.nullable().optional(),
      starterPrompts: agentField.starterPrompts.optional(),
      language: agentField.language.nullable().optional(),
      behaviorRules: agentField.behaviorRules.optional(),
      branding: agentField.branding.nullable().optional(),
      officeHours: agentField.officeHours.nullable().optional(),
      awayMessage: agentField.awayMessage.nullable().optional(),
      replyTime: agentField.replyTime.nullable().optional(),
      answerModel: agentField.answerModel.optional(),
      instructions: agentField.instructions.optional(),
      identityMode: identityModeSchema.optional(),
      routing: agentField.routing.optional(),
    })
    .refine((update) => AGENT_UPDATE_FIELDS.some((field) => update[field] !== undefined), {
      message: "give at least one setting to change",
      path: ["command"],
    }),
  z.object({ command: z.literal("agent.list"), workspaceId: id }),
  z.object({ command: z.literal("agent.identity-secret"), agentId: id }),
  z.object({ command: z.literal("agent.publish"), agentId: id }),
  z.object({ command: z.literal("agent.unpublish"), agentId: id }),
  z.object({
    command: z.literal("operator.create"),
    workspaceId: id,
    email: z.string().trim().pipe(z.email()),
    name: z.string().trim().min(1).max(200),
    role: z.enum(OPERATOR_ROLES).optional(),
  }),
  z.object({
    command: z.literal("token.create"),
    workspaceId: id,
    name: z.string().trim().min(1).max(200),
    abilities: z.array(z.enum(API_TOKEN_ABILITIES)).default(["sources:write"]),
  }),
  z.object({ command: z.literal("operator.list"), workspaceId: id }),
  z.object({ command: z.literal("operator.set-password"), operatorId: id, password: z.string().max(1024) }),
  z.object({ command: z.literal("operator.password-link"), operatorId: id }),
  z.object({ command: z.literal("operator.reset-two-factor"), operatorId: id }),
  z.object({ command: z.literal("operator.remove"), operatorId: id }),
  z.object({ command: z.literal("token.revoke"), tokenId: id }),
  z.object({ command: z.literal("token.list"), workspaceId: id }),
  z.object({ command: z.literal("source.list"), agentId: id }),
  z.object({ command: z.literal("lead.list"), agentId: id }),
  z.object({ command: z.literal("conversation.show"), conversationId: id }),
  z.object({ command: z.literal("inbox.list"), operatorId: id }),
  visitorCommand("visitor.erase"),
  visitorCommand("visitor.export"),
  z.object({ command: z.literal("erasure.list"), workspaceId: id }),
  z.object({
    command: z.literal("webhook.create"),
    workspaceId: id,
    url: z.string().trim().min(1).max(2000),
    events: z.array(webhookEventTypeSchema).min(1),
    description: z.string().trim().max(200).default(""),
  }),
  z.object({ command: z.literal("webhook.list"), workspaceId: id }),
  z.object({ command: z.literal("webhook.delete"), workspaceId: id, webhookId: id }),
  z
    .object({
      command: z.literal("answer-test.create"),
      agentId: id,
      question: answerTestQuestionSchema,
      expectUrl: answerTestUrlSchema.optional(),
      expectText: answerTestTextSchema.optional(),
      expectUnsure: z.literal(true).optional(),
    })
    .refine((test) => [test.expectUrl, test.expectText, test.expectUnsure].filter((value) => value !== undefined).length === 1, {
      message: "give exactly one of --expect-url, --expect-text and --expect-unsure",
      path: ["expect"],
    }),
  z.object({ command: z.literal("answer-test.run"), agentId: id }),
  z.object({
    command: z.literal("workspace.set-model"),
    workspaceId: id,
    provider: modelProviderSchema,
    baseUrl: httpUrlSchema.optional(),
    model: modelNameSchema,
    apiKey: z.string().trim().min(1).max(MAX_MODEL_API_KEY_LENGTH).optional(),
  }),
  z.object({ command: z.literal("workspace.remove-model"), workspaceId: id }),
  z.object({
    command: z.literal("workspace.set-embeddings"),
    workspaceId: id,
    provider: changeWorkspaceEmbeddingsBodySchema.shape.provider,
    baseUrl: changeWorkspaceEmbeddingsBodySchema.shape.base_url,
    model: changeWorkspaceEmbeddingsBodySchema.shape.model,
    dimensions: changeWorkspaceEmbeddingsBodySchema.shape.dimensions,
    apiKey: changeWorkspaceEmbeddingsBodySchema.shape.api_key,
  }),
  z.object({ command: z.literal("workspace.embeddings"), workspaceId: id }),
  z.object({ command: z.literal("workspace.retry-embeddings"), workspaceId: id }),
  /** `retentionDays`: null follows FRONTDESK_RETENTION_DAYS, 0 keeps conversations forever. */
  z.object({ command: z.literal("workspace.set-retention"), workspaceId: id, retentionDays: z.number().int().min(0).max(36_500).nullable() }),
]);

export type AdminCommand = z.infer<typeof adminCommandSchema>;
export type AdminCommandInput = z.input<typeof adminCommandSchema>;
