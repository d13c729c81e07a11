import { z } from "zod";
import { API_TOKEN_ABILITIES } from "../tenants/create-api-token.js";

const id = z.string().min(1).max(64);

/** Every admin operation, as the CLI sends it (directly or over the admin socket). */
export const adminCommandSchema = z.discriminatedUnion("command", [
  z.object({ command: z.literal("migrate") }),
  z.object({ command: z.literal("reindex"), agentId: id.optional() }),
  z.object({
    command: z.literal("workspace.create"),
    name: z.string().trim().min(1).max(200),
    conversationQuota: z.number().int().min(0).nullable().default(null),
  }),
  z.object({
    command: z.literal("agent.create"),
    workspaceId: id,
    name: z.string().trim().min(1).max(200),
    origins: z.array(z.string().min(1).max(300)).min(1, "give at least one --origin"),
    vertical: z.enum(["general", "ecommerce"]).default("general"),
    draft: z.boolean().default(false),
    personaName: z.string().trim().min(1).max(100).optional(),
    tone: z.string().trim().min(1).max(200).optional(),
    primaryColor: z
      .string()
      .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, "a hex colour such as #2563eb")
      .optional(),
    starterPrompts: z.array(z.string().trim().min(1).max(200)).max(10).default([]),
    language: z
      .string()
      .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, "a language tag such as en or pt-BR")
      .optional(),
  }),
  z.object({ command: z.literal("agent.publish"), agentId: id }),
  z.object({ command: z.literal("agent.unpublish"), agentId: id }),
  z.object({
    command: z.literal("operator.create"),
    workspaceId: id,
    email: z.string().trim().pipe(z.email()),
    name: z.string().trim().min(1).max(200),
  }),
  z.object({
    command: z.literal("token.create"),
    workspaceId: id,
    name: z.string().trim().min(1).max(200),
    abilities: z.array(z.enum(API_TOKEN_ABILITIES)).default(["sources:write"]),
  }),
  z.object({ command: z.literal("token.revoke"), tokenId: id }),
  z.object({ command: z.literal("lead.list"), agentId: id }),
  z.object({ command: z.literal("conversation.show"), conversationId: id }),
  z.object({ command: z.literal("inbox.list"), operatorId: id }),
]);

export type AdminCommand = z.infer<typeof adminCommandSchema>;
export type AdminCommandInput = z.input<typeof adminCommandSchema>;
