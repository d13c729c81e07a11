import { parseArgs } from "node:util";
import type { AdminCommandInput } from "../admin/admin-command.js";

export class UsageError extends Error {}

export const ADMIN_USAGE = `Usage: frontdesk admin <resource> <action> [options]
  workspace create --name N [--conversation-quota N]
  workspace list
  agent create --workspace W --name N --origin O [--origin O …] [--vertical general|ecommerce] [--draft]
               [--persona-name S] [--tone S] [--primary-color S] [--starter-prompt S …] [--language L]
  agent update ID [--name N] [--origin O …] [--vertical general|ecommerce]
               [--persona-name S | --no-persona-name] [--tone S | --no-tone] [--primary-color S | --no-primary-color]
               [--starter-prompt S … | --no-starter-prompts] [--language L | --no-language]
               (--origin and --starter-prompt replace the whole list; --no-X puts X back to its default)
  agent list --workspace W
  agent publish ID | agent unpublish ID
  operator create --workspace W --email E --name N
  operator list --workspace W
  token create --workspace W --name N [--ability A …]
  token list --workspace W
  token revoke ID
  source list --agent A
  lead list --agent A
  conversation show ID
  inbox list --operator ID`;

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

function optional(values: Record<string, unknown>, name: string): string | undefined {
  const value = values[name];
  return typeof value === "string" ? value : undefined;
}

/** A setting `agent update` can set (`--X v`) or put back to its default (`--no-X`, sent as null). */
function clearable(values: Record<string, unknown>, name: string): string | null | undefined {
  const value = optional(values, name);
  const clear = values[`no-${name}`] === true;
  if (clear && value !== undefined) throw new UsageError(`--${name} and --no-${name} cannot go together`);
  return clear ? null : value;
}

function starterPromptsChange(values: { "starter-prompt"?: string[]; "no-starter-prompts"?: boolean }): string[] | undefined {
  if (values["no-starter-prompts"] && values["starter-prompt"]) throw new UsageError("--starter-prompt and --no-starter-prompts cannot go together");
  return values["no-starter-prompts"] ? [] : values["starter-prompt"];
}

function integer(value: string, name: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

/** Turns `admin <resource> <action> …` into one admin command. */
export function parseAdminArguments(argv: string[]): AdminCommandInput {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      name: { type: "string" },
      "conversation-quota": { type: "string" },
      workspace: { type: "string" },
      origin: { type: "string", multiple: true },
      vertical: { type: "string" },
      draft: { type: "boolean" },
      "persona-name": { type: "string" },
      tone: { type: "string" },
      "primary-color": { type: "string" },
      "starter-prompt": { type: "string", multiple: true },
      language: { type: "string" },
      "no-persona-name": { type: "boolean" },
      "no-tone": { type: "boolean" },
      "no-primary-color": { type: "boolean" },
      "no-starter-prompts": { type: "boolean" },
      "no-language": { type: "boolean" },
      email: { type: "string" },
      ability: { type: "string", multiple: true },
      agent: { type: "string" },
      operator: { type: "string" },
    },
  });
  const [resource, action, id] = positionals;
  const needId = () => {
    if (!id) throw new UsageError(`${resource} ${action} needs an ID`);
    return id;
  };
  switch (`${resource} ${action}`) {
    case "workspace create": {
      const quota = optional(values, "conversation-quota");
      return { command: "workspace.create", name: required(values, "name"), conversationQuota: quota === undefined ? null : integer(quota, "conversation-quota") };
    }
    case "agent create":
      return {
        command: "agent.create",
        workspaceId: required(values, "workspace"),
        name: required(values, "name"),
        origins: values.origin ?? [],
        vertical: (optional(values, "vertical") ?? "general") as "general",
        draft: values.draft ?? false,
        personaName: optional(values, "persona-name"),
        tone: optional(values, "tone"),
        primaryColor: optional(values, "primary-color"),
        starterPrompts: values["starter-prompt"] ?? [],
        language: optional(values, "language"),
      };
    case "workspace list":
      return { command: "workspace.list" };
    case "agent update":
      return {
        command: "agent.update",
        agentId: needId(),
        name: optional(values, "name"),
        origins: values.origin,
        vertical: optional(values, "vertical") as "general" | undefined,
        personaName: clearable(values, "persona-name"),
        tone: clearable(values, "tone"),
        primaryColor: clearable(values, "primary-color"),
        starterPrompts: starterPromptsChange(values),
        language: clearable(values, "language"),
      };
    case "agent list":
      return { command: "agent.list", workspaceId: required(values, "workspace") };
    case "agent publish":
      return { command: "agent.publish", agentId: needId() };
    case "agent unpublish":
      return { command: "agent.unpublish", agentId: needId() };
    case "operator create":
      return { command: "operator.create", workspaceId: required(values, "workspace"), email: required(values, "email"), name: required(values, "name") };
    case "operator list":
      return { command: "operator.list", workspaceId: required(values, "workspace") };
    case "token create":
      return {
        command: "token.create",
        workspaceId: required(values, "workspace"),
        name: required(values, "name"),
        ...(values.ability ? { abilities: values.ability as ["sources:write"] } : {}),
      };
    case "token revoke":
      return { command: "token.revoke", tokenId: needId() };
    case "token list":
      return { command: "token.list", workspaceId: required(values, "workspace") };
    case "source list":
      return { command: "source.list", agentId: required(values, "agent") };
    case "lead list":
      return { command: "lead.list", agentId: required(values, "agent") };
    case "conversation show":
      return { command: "conversation.show", conversationId: needId() };
    case "inbox list":
      return { command: "inbox.list", operatorId: required(values, "operator") };
    default:
      throw new UsageError(`Unknown admin command: ${positionals.join(" ") || "(none)"}`);
  }
}
