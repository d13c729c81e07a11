import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { ChatSession } from "../chat-session.js";
import { RatingButtons } from "../rating-buttons.js";
import type { Engagement, EngagementState } from "./engagement.js";

function useEngagement(engagement: Engagement): EngagementState {
  const [state, setState] = useState(engagement.state);
  useEffect(() => engagement.subscribe(setState), [engagement]);
  return state;
}

function useOpen(session: ChatSession): boolean {
  const [open, setOpen] = useState(session.state.open);
  useEffect(() => session.subscribe((state) => setOpen(state.open)), [session]);
  return open;
}

/** A proactive rule's message or call to action (or a coupon's outcome) next to the launcher, while the panel is closed. */
export function RuleBubbleView({ engagement, session }: { engagement: Engagement; session: ChatSession }): JSX.Element | null {
  const state = useEngagement(engagement);
  const open = useOpen(session);
  const bubble = state.bubble;
  if (!bubble || open) return null;
  const strings = engagement.strings;
  return (
    <div class="fd-bubble" role="status" aria-live="polite">
      <button type="button" class="fd-bubble-dismiss" aria-label={strings.dismiss} onClick={() => engagement.dismissBubble()}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z" />
        </svg>
      </button>
      {bubble.text && (
        <button type="button" class="fd-bubble-text" onClick={() => engagement.openFromBubble()}>
          {bubble.text}
        </button>
      )}
      {bubble.cta && (
        <button type="button" class="fd-cta" onClick={() => void engagement.followCta()}>
          {bubble.cta.label}
        </button>
      )}
    </div>
  );
}

function SatisfactionPrompt({ engagement, state }: { engagement: Engagement; state: EngagementState }): JSX.Element | null {
  const [comment, setComment] = useState("");
  const strings = engagement.strings;
  if (state.satisfaction === "hidden") return null;
  if (state.satisfaction === "thanks") return <p class="fd-csat fd-csat-thanks">{strings.csatThanks}</p>;
  return (
    <form
      class="fd-csat"
      aria-label={strings.csatQuestion}
      onSubmit={(event) => {
        event.preventDefault();
        void engagement.sendSatisfaction(comment);
      }}
    >
      <p class="fd-csat-question">{strings.csatQuestion}</p>
      <RatingButtons ratings={["good", "bad"]} labels={[strings.csatGood, strings.csatBad]} value={state.rating} onRate={(rating) => engagement.rate(rating)} />
      {state.satisfaction === "comment" && (
        <div class="fd-csat-comment">
          <textarea rows={2} maxLength={500} aria-label={strings.csatCommentLabel} placeholder={strings.csatCommentLabel} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
          <button type="submit" class="fd-csat-send">
            {strings.csatSend}
          </button>
        </div>
      )}
    </form>
  );
}

/** Inside the panel: the coupon's outcome and the satisfaction prompt. */
export function EngagementFooter({ engagement }: { engagement: Engagement }): JSX.Element | null {
  const state = useEngagement(engagement);
  const coupon = engagement.couponText();
  if (!coupon && state.satisfaction === "hidden") return null;
  return (
    <div class="fd-engagement">
      {coupon && (
        <p class={`fd-coupon ${state.coupon?.status ?? ""}`} role="status">
          {coupon}
        </p>
      )}
      <SatisfactionPrompt engagement={engagement} state={state} />
    </div>
  );
}
