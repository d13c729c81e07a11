/** The engagement features' words (rule bubbles, coupons, the satisfaction prompt) in English; the other languages are in languages/engagement.ts. */
export const engagementEn = {
  dismiss: "Dismiss",
  couponApplied: (code: string) => `Coupon ${code} is applied to your order.`,
  couponRefused: (code: string) => `The coupon ${code} could not be applied here.`,
  couponApplying: (code: string) => `Applying coupon ${code}…`,
  csatQuestion: "Did this conversation help you?",
  csatGood: "Yes, it helped",
  csatBad: "No, it didn't",
  csatCommentLabel: "Anything to add? (optional)",
  csatSend: "Send feedback",
  csatThanks: "Thanks for your feedback!",
};
export type EngagementStrings = typeof engagementEn;
