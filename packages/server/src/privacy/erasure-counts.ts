import type { ErasureCounts } from "@frontdesk/contracts";

export const NO_ERASURE: ErasureCounts = {
  visitors: 0,
  conversations: 0,
  messages: 0,
  leads: 0,
  events: 0,
  satisfaction_ratings: 0,
  answer_ratings: 0,
  coupons: 0,
  notifications: 0,
};

export const addCounts = (a: ErasureCounts, b: ErasureCounts): ErasureCounts => ({
  visitors: a.visitors + b.visitors,
  conversations: a.conversations + b.conversations,
  messages: a.messages + b.messages,
  leads: a.leads + b.leads,
  events: a.events + b.events,
  satisfaction_ratings: a.satisfaction_ratings + b.satisfaction_ratings,
  answer_ratings: a.answer_ratings + b.answer_ratings,
  coupons: a.coupons + b.coupons,
  notifications: a.notifications + b.notifications,
});
