import { AppError } from "../http/app-error.js";
import type { Services } from "../services.js";
import type { WidgetSession } from "./authenticate-session.js";
import { sessionEnded, stampCoupon } from "../conversations/conversations.js";

/** POST /coupon/apply: stamps the conversation with the code so attribution can credit the bot; 401 once the visitor is erased. */
export async function applyCoupon(services: Services, session: WidgetSession, code: string) {
  if (session.conversation.vertical !== "ecommerce") {
    throw new AppError("coupon_not_available", "Coupons are available to e-commerce agents only.");
  }
  const conversation = await stampCoupon(services.db, session.conversation.id, code);
  if (!conversation) throw sessionEnded();
  return { conversation_id: conversation.id, coupon_code: code, coupon_applied_at: conversation.couponAppliedAt! };
}
