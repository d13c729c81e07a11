import { workspaceEmbeddingsProviders, type WorkspaceEmbeddingsProvider } from "@frontdesk/contracts";
import type { BehaviorRule, OfficeHours } from "@frontdesk/contracts";
import { readFileSync } from "node:fs";
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
               [--behavior-rules-file FILE | --no-behavior-rules]
               [--office-hours-file FILE | --no-office-hours] [--away-message S | --no-away-message]
               [--reply-time minutes|hours|day | --no-reply-time]
               [--model default|extractive|NAME] [--instructions TEXT]
               [--answer-length short|medium|long] [--when-unsure offer_person|say_unknown]
               [--identity off|optional|required]   (verified visitors: optional and required need a secret first)
               [--routing manual|round_robin [--team OPERATOR_ID,OPERATOR_ID…]]
               (--origin and --starter-prompt replace the whole list; --no-X puts X back to its default;
               FILE is a JSON array of proactive rules, replacing them all: see docs/widget.md;
               the office hours FILE is {"time_zone":"Europe/Paris","days":{"mon":[{"open":"09:00","close":"17:30"}],…}},
               --no-office-hours: always open; --routing round_robin assigns each request for a person
               to the next operator online, of --team only when given)
  agent list --workspace W
  agent identity-secret ID                    (creates or rotates the agent's identity secret; prints {"secret": "…"} once:
               hashes made with the previous secret stop verifying)
  agent publish ID | agent unpublish ID
  operator create --workspace W --email E --name N [--role admin|agent]
               (prints a one-time set-password link, valid 24 hours; the first operator of a
               workspace is an admin unless --role says otherwise, later ones agents)
  operator list --workspace W
  operator set-password ID --password-stdin   (reads the password from standard input)
  operator password-link ID                   (a new set-password link; earlier ones stop working)
  operator reset-two-factor ID                (removes the operator's authenticator and recovery codes: a lost phone)
  operator remove ID                          (ends every session of the operator)
  token create --workspace W --name N [--ability A …]
  token list --workspace W
  token revoke ID
  source list --agent A
  lead list --agent A
  conversation show ID
  inbox list --operator ID
  visitor export --workspace W --visitor V   (everything held about the visitor, as JSON)
  visitor erase --workspace W --visitor V    (deletes it all, irreversibly; an audit record with counts remains)
               (either takes --agent A --user-id U instead of --visitor: the agent's verified user of that id)
  erasure list --workspace W                 (the audit records of erasures and retention runs, newest first)
  webhook create --workspace W --url U --event E [--event E …] [--description D]
               (prints the signing secret once; events: lead.created lead.updated human.requested
               conversation.closed satisfaction.rated message.rated source.indexed source.failed
               answer_tests.regressed)
  webhook list --workspace W
  webhook delete ID --workspace W
  workspace set-model --workspace W --provider openai|anthropic|openai-compatible [--base-url URL]
               --model NAME [--api-key-stdin]
               (the workspace's answer model; the key is read from standard input and stored encrypted;
               a loopback or private base URL needs FRONTDESK_MODEL_ALLOW_PRIVATE_NETWORKS=true)
  workspace remove-model --workspace W        (its agents answer with the instance's FRONTDESK_LLM_* again)
  answer-test create --agent A --question Q (--expect-url URL | --expect-text TEXT | --expect-unsure)
               (URL: an absolute address, or a path such as /returns matched on any host)
  answer-test run --agent A                  (runs the agent's answer tests now; prints
               {"passed","failed","results":[{"id","question","passed","reason"}]})
  workspace set-retention ID --days N | --default
  workspace set-embeddings --workspace W --provider default|hashing|local|openai-compatible
               [--base-url URL --model NAME [--dimensions N] [--api-key-stdin]]
                                             (re-embeds the workspace's knowledge in the background; the key is read from standard input)
  workspace embeddings --workspace W         (the embeddings in use and the re-embedding's progress)
  workspace retry-embeddings --workspace W   (resumes a failed re-embedding)
               (purge conversations idle over N days; 0 keeps them forever; --default follows FRONTDESK_RETENTION_DAYS)`;

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

/** The JSON in FILE, or a usage error naming the flag (its content is validated by the command). */
function readJsonFile(flag: string, file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`--${flag}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--${flag}: ${file} is not JSON (${(error as Error).message})`);
  }
}

/** --behavior-rules-file: the JSON array in FILE (its rules are validated by the command); --no-behavior-rules: none. */
function behaviorRulesChange(values: { "behavior-rules-file"?: string; "no-behavior-rules"?: boolean }): unknown[] | undefined {
  const file = values["behavior-rules-file"];
  if (values["no-behavior-rules"] && file !== undefined) throw new UsageError("--behavior-rules-file and --no-behavior-rules cannot go together");
  if (values["no-behavior-rules"]) return [];
  if (file === undefined) return undefined;
  const rules = readJsonFile("behavior-rules-file", file);
  if (!Array.isArray(rules)) throw new UsageError(`--behavior-rules-file: ${file} must hold a JSON array of rules ([] removes them all)`);
  return rules;
}

/** --routing manual|round_robin [--team ID,ID]: the whole routing (no --team: every operator; checked by the command's schema). */
function routingChange(values: { routing?: string; team?: string }): { mode: "manual"; team: string[] } | undefined {
  if (values.routing === undefined) {
    if (values.team !== undefined) throw new UsageError("--team goes with --routing round_robin");
    return undefined;
  }
  const team = values.team === undefined ? [] : values.team.split(",").map((id) => id.trim()).filter((id) => id.length > 0);
  // The mode is checked by the command's schema, which names a bad one.
  return { mode: values.routing as "manual", team };
}

/** --office-hours-file: the JSON object in FILE (validated by the command); --no-office-hours: always open (null). */
function officeHoursChange(values: { "office-hours-file"?: string; "no-office-hours"?: boolean }): unknown {
  const file = values["office-hours-file"];
  if (values["no-office-hours"] && file !== undefined) throw new UsageError("--office-hours-file and --no-office-hours cannot go together");
  if (values["no-office-hours"]) return null;
  if (file === undefined) return undefined;
  const hours = readJsonFile("office-hours-file", file);
  if (typeof hours !== "object" || hours === null || Array.isArray(hours)) {
    throw new UsageError(`--office-hours-file: ${file} must hold a JSON object {"time_zone": …, "days": {…}}`);
  }
  return hours;
}

/** --instructions, --answer-length, --when-unsure: the instructions' members given (the others kept); checked by the command. */
function instructionsChange(values: { instructions?: string; "answer-length"?: string; "when-unsure"?: string }): { rules?: string; length?: "short"; when_unsure?: "say_unknown" } | undefined {
  const change = {
    ...(values.instructions === undefined ? {} : { rules: values.instructions }),
    ...(values["answer-length"] === undefined ? {} : { length: values["answer-length"] as "short" }),
    ...(values["when-unsure"] === undefined ? {} : { when_unsure: values["when-unsure"] as "say_unknown" }),
  };
  return Object.keys(change).length === 0 ? undefined : change;
}

/** --provider of `workspace set-embeddings`, one of the known ones. */
function embeddingsProvider(value: string): WorkspaceEmbeddingsProvider {
  const provider = workspaceEmbeddingsProviders.find((known) => known === value);
  if (provider === undefined) throw new UsageError(`--provider must be one of ${workspaceEmbeddingsProviders.join(", ")}`);
  return provider;
}

function integer(value: string, name: string): number {
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

/** Standard input, read to its end, without the line ending a shell or `echo` adds. */
function defaultReadStandardInput(): string {
  return readFileSync(0, "utf8").replace(/\r?\n$/, "");
}

/** Turns `admin <resource> <action> …` into one admin command (`readStandardInput` for --password-stdin). */
export function parseAdminArguments(argv: string[], readStandardInput: () => string = defaultReadStandardInput): AdminCommandInput {
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
      "behavior-rules-file": { type: "string" },
      "no-behavior-rules": { type: "boolean" },
      "office-hours-file": { type: "string" },
      "no-office-hours": { type: "boolean" },
      "away-message": { type: "string" },
      "no-away-message": { type: "boolean" },
      "reply-time": { type: "string" },
      "no-reply-time": { type: "boolean" },
      routing: { type: "string" },
      team: { type: "string" },
      email: { type: "string" },
      ability: { type: "string", multiple: true },
      agent: { type: "string" },
      operator: { type: "string" },
      role: { type: "string" },
      "password-stdin": { type: "boolean" },
      visitor: { type: "string" },
      "user-id": { type: "string" },
      identity: { type: "string" },
      days: { type: "string" },
      default: { type: "boolean" },
      url: { type: "string" },
      event: { type: "string", multiple: true },
      description: { type: "string" },
      provider: { type: "string" },
      "base-url": { type: "string" },
      model: { type: "string" },
      "api-key-stdin": { type: "boolean" },
      instructions: { type: "string" },
      "answer-length": { type: "string" },
      "when-unsure": { type: "string" },
      question: { type: "string" },
      "expect-url": { type: "string" },
      "expect-text": { type: "string" },
      "expect-unsure": { type: "boolean" },
      dimensions: { type: "string" },
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
        // Parsed JSON, checked by the command's schema (which names each bad field).
        behaviorRules: behaviorRulesChange(values) as BehaviorRule[] | undefined,
        officeHours: officeHoursChange(values) as OfficeHours | null | undefined,
        awayMessage: clearable(values, "away-message"),
        replyTime: clearable(values, "reply-time") as "minutes" | null | undefined,
        answerModel: optional(values, "model"),
        instructions: instructionsChange(values),
        identityMode: optional(values, "identity") as "off" | undefined,
        routing: routingChange(values),
      };
    case "agent list":
      return { command: "agent.list", workspaceId: required(values, "workspace") };
    case "agent identity-secret":
      return { command: "agent.identity-secret", agentId: needId() };
    case "agent publish":
      return { command: "agent.publish", agentId: needId() };
    case "agent unpublish":
      return { command: "agent.unpublish", agentId: needId() };
    case "operator create":
      return {
        command: "operator.create",
        workspaceId: required(values, "workspace"),
        email: required(values, "email"),
        name: required(values, "name"),
        role: optional(values, "role") as "admin" | undefined,
      };
    case "operator set-password": {
      if (values["password-stdin"] !== true) throw new UsageError("operator set-password needs --password-stdin (a password never goes on the command line)");
      return { command: "operator.set-password", operatorId: needId(), password: readStandardInput() };
    }
    case "operator password-link":
      return { command: "operator.password-link", operatorId: needId() };
    case "operator reset-two-factor":
      return { command: "operator.reset-two-factor", operatorId: needId() };
    case "operator remove":
      return { command: "operator.remove", operatorId: needId() };
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
    case "visitor export":
    case "visitor erase":
      return {
        command: action === "erase" ? "visitor.erase" : "visitor.export",
        workspaceId: required(values, "workspace"),
        ...(values["user-id"] === undefined
          ? { visitorId: required(values, "visitor") }
          : { agentId: required(values, "agent"), userId: values["user-id"], visitorId: optional(values, "visitor") }),
      };
    case "erasure list":
      return { command: "erasure.list", workspaceId: required(values, "workspace") };
    case "webhook create": {
      if (!values.event || values.event.length === 0) throw new UsageError("--event is required (repeat it for several events)");
      return {
        command: "webhook.create",
        workspaceId: required(values, "workspace"),
        url: required(values, "url"),
        // Checked by the command's schema, which names a bad one.
        events: values.event as ["lead.created"],
        description: optional(values, "description") ?? "",
      };
    }
    case "answer-test create":
      return {
        command: "answer-test.create",
        agentId: required(values, "agent"),
        question: required(values, "question"),
        ...(values["expect-url"] === undefined ? {} : { expectUrl: values["expect-url"] }),
        ...(values["expect-text"] === undefined ? {} : { expectText: values["expect-text"] }),
        ...(values["expect-unsure"] ? { expectUnsure: true as const } : {}),
      };
    case "answer-test run":
      return { command: "answer-test.run", agentId: required(values, "agent") };
    case "webhook list":
      return { command: "webhook.list", workspaceId: required(values, "workspace") };
    case "webhook delete":
      return { command: "webhook.delete", workspaceId: required(values, "workspace"), webhookId: needId() };
    case "workspace set-model":
      return {
        command: "workspace.set-model",
        workspaceId: required(values, "workspace"),
        // Checked by the command's schema, which names a bad one.
        provider: required(values, "provider") as "openai",
        baseUrl: optional(values, "base-url"),
        model: required(values, "model"),
        apiKey: values["api-key-stdin"] === true ? readStandardInput() : undefined,
      };
    case "workspace remove-model":
      return { command: "workspace.remove-model", workspaceId: required(values, "workspace") };
    case "workspace set-embeddings": {
      const dimensions = optional(values, "dimensions");
      const baseUrl = optional(values, "base-url");
      const model = optional(values, "model");
      return {
        command: "workspace.set-embeddings",
        workspaceId: required(values, "workspace"),
        provider: embeddingsProvider(required(values, "provider")),
        ...(baseUrl === undefined ? {} : { baseUrl }),
        ...(model === undefined ? {} : { model }),
        ...(dimensions === undefined ? {} : { dimensions: integer(dimensions, "dimensions") }),
        ...(values["api-key-stdin"] === true ? { apiKey: readStandardInput() } : {}),
      };
    }
    case "workspace embeddings":
      return { command: "workspace.embeddings", workspaceId: required(values, "workspace") };
    case "workspace retry-embeddings":
      return { command: "workspace.retry-embeddings", workspaceId: required(values, "workspace") };
    case "workspace set-retention": {
      const days = optional(values, "days");
      if ((days === undefined) === (values.default !== true)) throw new UsageError("workspace set-retention needs either --days N or --default");
      return { command: "workspace.set-retention", workspaceId: needId(), retentionDays: days === undefined ? null : integer(days, "days") };
    }
    default:
      throw new UsageError(`Unknown admin command: ${positionals.join(" ") || "(none)"}`);
  }
}
