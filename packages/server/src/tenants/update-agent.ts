import type { AnswerInstructions, BehaviorRule, AgentRouting, BrandingOverrides, IdentityMode, OfficeHours, ReplyTime } from "@frontdesk/contracts";
import type { FrontdeskEvents } from "../events/frontdesk-events.js";
import type { Database, Queryable } from "../db/database.js";
import { AppError } from "../http/app-error.js";
import { AGENT_DEFAULTS, type Agent, type Vertical } from "./agent.js";
import {
  findAgentForUpdate,
  setAgentAnswering,
  setAgentAvailability,
  setAgentBehaviorRules,
  setAgentBranding,
  setAgentIdentityMode,
  setAgentRouting,
  updateAgentSettings,
} from "./agent-repository.js";
import { findWorkspaceOperatorsAmong } from "./agent-routing-repository.js";
import { findWorkspaceModelProvider } from "./workspace-model-provider-repository.js";
import { canonicalTimeZone } from "./office-hours.js";
import { normalizeAllowedOrigins } from "./origin-policy.js";
import { restemAgentChunks } from "../ingest/documents.js";
import { textSearchConfigFor } from "../language/text-search-config.js";

/**
 * A change to an agent's settings. An absent field is left as it is; `null` clears an optional
 * setting back to what `agent create` gives when it is not set (persona name: the agent's name;
 * tone: friendly; primary colour: #2563eb; language: en); `starterPrompts: []` removes them all.
 * `origins` replaces the whole list.
 */
export interface UpdateAgentInput {
  agentId: string;
  name?: string;
  origins?: string[];
  vertical?: Vertical;
  personaName?: string | null;
  tone?: string | null;
  primaryColor?: string | null;
  starterPrompts?: string[];
  language?: string | null;
  /** Replaces every proactive rule (`[]` removes them). */
  behaviorRules?: BehaviorRule[];
  /** Replaces what the agent overrides of the service's branding; null: none (the service's branding). */
  branding?: BrandingOverrides | null;
  /** Replaces the office hours (validated by the caller's schema); null: always open. */
  officeHours?: OfficeHours | null;
  /** null: none. */
  awayMessage?: string | null;
  /** null: not shown. */
  replyTime?: ReplyTime | null;
  /** `default`, `extractive`, or a model name on the workspace's provider (which it must have). */
  answerModel?: string;
  /** The members given replace the agent's. */
  instructions?: Partial<AnswerInstructions>;
  /** How init treats visitors' identities; `optional` and `required` need an identity secret first. */
  identityMode?: IdentityMode;
  /** Replaces the routing; the team's ids must be operators of the agent's workspace. */
  routing?: AgentRouting;
}

/** Answer models every agent may use; any other name is a model of the workspace's provider. */
const BUILT_IN_ANSWER_MODELS = new Set(["default", "extractive"]);

/**
 * Changes an agent's settings in one transaction (its row locked while read and written). A
 * change of its answer model or instructions raises `agent.answering.changed` through `events`
 * in that transaction.
 */
export async function updateAgent(db: Database, input: UpdateAgentInput, events?: FrontdeskEvents, now: () => Date = () => new Date()): Promise<Agent> {
  const allowedOrigins = input.origins === undefined ? undefined : normalizeAllowedOrigins(input.origins);
  return db.transaction(async (tx) => {
    const agent = await findAgentForUpdate(tx, input.agentId);
    if (!agent) throw new AppError("not_found", `No agent ${input.agentId}.`);
    const name = input.name ?? agent.name;
    const vertical = input.vertical ?? agent.vertical;
    const behaviorRules = input.behaviorRules ?? agent.behaviorRules;
    assertCouponsAllowed(behaviorRules, vertical, input.behaviorRules !== undefined);
    const updated = await updateAgentSettings(tx, agent.id, {
      name,
      allowedOrigins: allowedOrigins ?? agent.allowedOrigins,
      vertical,
      personaName: input.personaName === null ? name : (input.personaName ?? agent.personaName),
      personaTone: input.tone === null ? AGENT_DEFAULTS.personaTone : (input.tone ?? agent.personaTone),
      primaryColor: input.primaryColor === null ? AGENT_DEFAULTS.primaryColor : (input.primaryColor ?? agent.theme.primary),
      starterPrompts: input.starterPrompts ?? agent.starterPrompts,
      languageDefault: input.language === null ? AGENT_DEFAULTS.languageDefault : (input.language ?? agent.languageDefault),
    });
    // Its knowledge was stemmed in the old language: stemmed again in the new one, or no question would match it.
    const textSearchConfig = textSearchConfigFor(updated.languageDefault);
    if (textSearchConfig !== textSearchConfigFor(agent.languageDefault)) await restemAgentChunks(tx, agent.id, textSearchConfig);
    const withRules = input.behaviorRules === undefined ? updated : await setAgentBehaviorRules(tx, agent.id, input.behaviorRules);
    const withBranding = input.branding === undefined ? withRules : await setAgentBranding(tx, agent.id, input.branding ?? {});
    const withAnswering = await changeIdentityMode(tx, await changeAnswering(tx, agent, withBranding, input, events, now), input.identityMode);
    const withRouting = input.routing === undefined ? withAnswering : await changeRouting(tx, agent, input.routing);
    if (input.officeHours === undefined && input.awayMessage === undefined && input.replyTime === undefined) return withRouting;
    const officeHours = input.officeHours === undefined ? agent.officeHours : input.officeHours;
    return setAgentAvailability(tx, agent.id, {
      officeHours: officeHours === null ? null : { ...officeHours, time_zone: canonicalTimeZone(officeHours.time_zone) },
      awayMessage: input.awayMessage === undefined ? agent.awayMessage : input.awayMessage,
      replyTime: input.replyTime === undefined ? agent.replyTime : input.replyTime,
    });
  });
}

/** The answer model and instructions: a model name needs the workspace's provider; a change is announced. */
async function changeAnswering(
  tx: Queryable,
  before: Agent,
  current: Agent,
  input: UpdateAgentInput,
  events: FrontdeskEvents | undefined,
  now: () => Date,
): Promise<Agent> {
  if (input.answerModel === undefined && input.instructions === undefined) return current;
  const answerModel = input.answerModel ?? before.answerModel;
  if (input.answerModel !== undefined && !BUILT_IN_ANSWER_MODELS.has(answerModel) && (await findWorkspaceModelProvider(tx, before.workspaceId)) === null) {
    throw new AppError(
      "validation_failed",
      `The agent's answer model is invalid (answerModel: the workspace has no model provider; set one first, or use default or extractive).`,
      { answerModel: ["the workspace has no model provider: set one first, or use default or extractive"] },
    );
  }
  const instructions = { ...before.instructions, ...input.instructions };
  const updated = await setAgentAnswering(tx, before.id, answerModel, instructions);
  const changed = answerModel !== before.answerModel || JSON.stringify(instructions) !== JSON.stringify(before.instructions);
  if (changed && events !== undefined) {
    await events.raise(tx, { type: "agent.answering.changed", workspaceId: before.workspaceId, agentIds: [before.id], changedAt: now().toISOString() });
  }
  return updated;
}

/** The identity mode: verifying needs a secret to verify with, so `optional` and `required` wait for one. */
async function changeIdentityMode(tx: Queryable, current: Agent, mode: IdentityMode | undefined): Promise<Agent> {
  if (mode === undefined || mode === current.identityMode) return current;
  if (mode !== "off" && current.identitySecretSealed === null) {
    const reason = "the agent has no identity secret yet: create one first (agent identity-secret)";
    throw new AppError("validation_failed", `The agent's identity mode is invalid (identityMode: ${reason}).`, { identityMode: [reason] });
  }
  return setAgentIdentityMode(tx, current.id, mode);
}

/**
 * The routing, once every operator of its team is known in the agent's workspace: an unknown id is
 * refused, naming it, unless the team already had it (an operator removed since: dropped, so that
 * a form sending the team back as it read it still saves).
 */
async function changeRouting(tx: Queryable, agent: Agent, routing: AgentRouting): Promise<Agent> {
  const known = new Set((await findWorkspaceOperatorsAmong(tx, agent.workspaceId, routing.team)).map((operator) => operator.id));
  const unknown = routing.team.filter((id) => !known.has(id) && !agent.routing.team.includes(id));
  if (unknown.length > 0) {
    throw new AppError("validation_failed", `The agent's routing is invalid (routing.team: no operator of the workspace has the id ${unknown.join(", ")}).`, {
      "routing.team": [`no operator of the workspace has the id ${unknown.join(", ")}`],
    });
  }
  return setAgentRouting(tx, agent.id, { mode: routing.mode, team: routing.team.filter((id) => known.has(id)) });
}

/** A rule's coupon is for e-commerce agents only (as /coupon/apply is): refused on the others, with each rule's field named. */
function assertCouponsAllowed(rules: BehaviorRule[], vertical: Vertical, rulesGiven: boolean): void {
  if (vertical === "ecommerce") return;
  const fields: Record<string, string[]> = {};
  rules.forEach((rule, index) => {
    if (rule.action.type === "cta" && rule.action.coupon !== undefined) fields[`behaviorRules.${index}.action.coupon`] = ["coupons are for e-commerce agents only (--vertical ecommerce)"];
  });
  const named = Object.keys(fields);
  if (named.length === 0) return;
  const message = rulesGiven
    ? `The command is invalid (${named.join(", ")}: coupons are for e-commerce agents only; give --vertical ecommerce or remove the coupons).`
    : `The agent's rules offer coupons (${named.join(", ")}): a ${vertical} agent cannot; remove them first (--behavior-rules-file).`;
  throw new AppError("validation_failed", message, fields);
}
