import { AppError } from "../../http/app-error.js";
import type { Services } from "../../services.js";
import { findWorkspaceAgent } from "../../tenants/agents.js";
import type { SignedInOperator } from "../authenticate-operator.js";
import { listWorkspaceLabels } from "../../labels/labels.js";
import { countConversationsPerLabel, countDailyOutcomes, countFunnel, listTopQuestions, medianFirstOperatorReply, type AnalyticsScope } from "../../conversations/conversation-reports.js";
import { ANALYTICS_DEFAULT_DAYS, ANALYTICS_MAX_DAYS, TOP_QUESTIONS } from "./schemas.js";

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const startOf = (day: string) => new Date(`${day}T00:00:00Z`);

/** The period's first and last UTC days (both included), from the query or by default the last 30 days. */
export function analyticsPeriod(now: Date, query: { from?: string | undefined; to?: string | undefined }): { from: string; to: string } {
  const to = query.to ?? dayOf(now);
  const from = query.from ?? dayOf(new Date(startOf(to).getTime() - (ANALYTICS_DEFAULT_DAYS - 1) * DAY_MS));
  if (from > to) throw new AppError("validation_failed", "The request is invalid.", { "querystring.from": ["must not be after `to`"] });
  if ((startOf(to).getTime() - startOf(from).getTime()) / DAY_MS + 1 > ANALYTICS_MAX_DAYS) {
    throw new AppError("validation_failed", "The request is invalid.", { "querystring.from": [`the period must be at most ${ANALYTICS_MAX_DAYS} days`] });
  }
  return { from, to };
}

const shareOf = (count: number, total: number) => (total === 0 ? null : count / total);

/** GET /console/analytics: one agent's figures over a period of UTC days. */
export async function showAnalytics(services: Services, operator: SignedInOperator, query: { agent_id: string; from?: string | undefined; to?: string | undefined }) {
  const period = analyticsPeriod(services.now(), query);
  const agent = await findWorkspaceAgent(services.db, operator.workspaceId, query.agent_id);
  if (!agent) throw new AppError("agent_not_found", `No agent ${query.agent_id} in this workspace.`);
  const scope: AnalyticsScope = {
    workspaceId: operator.workspaceId,
    agentId: agent.id,
    from: startOf(period.from),
    to: new Date(startOf(period.to).getTime() + DAY_MS),
  };
  const [daily, reply, questions, funnel, perLabel, labels] = await Promise.all([
    countDailyOutcomes(services.db, scope),
    medianFirstOperatorReply(services.db, scope),
    listTopQuestions(services.db, scope, TOP_QUESTIONS),
    countFunnel(services.db, scope),
    countConversationsPerLabel(services.db, scope),
    listWorkspaceLabels(services.db, operator.workspaceId),
  ]);
  const sum = (pick: (day: (typeof daily)[number]) => number) => daily.reduce((total, day) => total + pick(day), 0);
  const total = sum((day) => day.conversations);
  const handed = sum((day) => day.handedToHuman);
  const lowConfidence = sum((day) => day.answeredLowConfidence);
  const answered = sum((day) => day.answered);
  const unanswered = total - handed - lowConfidence - answered;
  const good = sum((day) => day.good);
  const bad = sum((day) => day.bad);
  const byDay = new Map(daily.map((day) => [day.day, day.conversations]));
  const perDay: { date: string; conversations: number }[] = [];
  for (let at = scope.from.getTime(); at < scope.to.getTime(); at += DAY_MS) {
    const date = dayOf(new Date(at));
    perDay.push({ date, conversations: byDay.get(date) ?? 0 });
  }
  const outcome = (count: number) => ({ count, share: shareOf(count, total) });
  return {
    agent_id: agent.id,
    from: period.from,
    to: period.to,
    conversations: { total, per_day: perDay },
    outcomes: {
      answered: outcome(answered),
      answered_low_confidence: outcome(lowConfidence),
      handed_to_human: outcome(handed),
      unanswered: outcome(unanswered),
    },
    satisfaction: { good, bad, share_good: shareOf(good, good + bad) },
    answer_ratings: { up: sum((day) => day.answersUp), down: sum((day) => day.answersDown) },
    resolutions: {
      confirmed: outcome(sum((day) => day.resolvedConfirmed)),
      ended_without_person: outcome(sum((day) => day.endedWithoutPerson)),
    },
    first_operator_reply: { median_seconds: reply.medianSeconds, conversations: reply.replied },
    top_questions: questions,
    funnel: { launcher_opened: funnel.launcherOpened, conversations: funnel.conversations, leads: funnel.leads },
    // Listed by name already: a stable sort keeps that order among equal counts.
    labels: labels
      .map((label) => ({ id: label.id, name: label.name, colour: label.colour, conversations: perLabel.get(label.id) ?? 0 }))
      .sort((a, b) => b.conversations - a.conversations),
  };
}
