import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { ChatSession, ChatState } from "../chat-session.js";
import type { UiStrings } from "../ui-strings.js";

interface ViewProps {
  session: ChatSession;
  state: ChatState;
  strings: UiStrings;
}

/** The header's menu: "Talk to a person" (always there) and "New conversation". */
export function HeaderMenu({ session, state, strings }: ViewProps): JSX.Element {
  const [open, setOpen] = useState(false);
  const { status, requesting } = state.handoff;
  const choose = (action: () => Promise<void>) => {
    setOpen(false);
    void action();
  };
  return (
    <div
      class="menu-wrap"
      onKeyDown={(event) => {
        // Escape closes the menu first, the panel only after.
        if (event.key === "Escape" && open) {
          event.stopPropagation();
          setOpen(false);
        }
      }}
      onFocusOut={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button type="button" class="close" aria-label={strings.menu} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M12 8a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm0 6a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm0 6a2 2 0 1 0 0-4 2 2 0 0 0 0 4z" />
        </svg>
      </button>
      {open && (
        // mousedown keeps the focus where it is (a browser that does not focus clicked buttons would otherwise close the menu first).
        <div class="menu" role="menu" aria-label={strings.menu} onMouseDown={(event) => event.preventDefault()}>
          <button
            type="button"
            role="menuitem"
            disabled={requesting || status === "awaiting_human" || status === "human" || state.phase === "unavailable"}
            onClick={() => choose(() => session.handoff.requestHuman())}
          >
            {strings.talkToPerson}
          </button>
          <button type="button" role="menuitem" disabled={state.answering} onClick={() => choose(() => session.newConversation())}>
            {strings.newConversation}
          </button>
        </div>
      )}
    </div>
  );
}

/** The e-mail asked for when nobody is online to take the conversation (POST /leads). */
function LeadForm({ session, state, strings }: ViewProps): JSX.Element {
  const [email, setEmail] = useState("");
  const { lead, leadError } = state.handoff;
  if (lead === "saved") return <p class="lead-done">{strings.leadSaved}</p>;
  const submit = (event: Event) => {
    event.preventDefault();
    if (email.trim() && lead !== "sending") void session.handoff.leaveEmail(email);
  };
  return (
    <form class="lead" onSubmit={submit}>
      <p>{strings.leadPrompt}</p>
      <div class="lead-row">
        <input
          type="email"
          required
          maxLength={320}
          autocomplete="email"
          aria-label={strings.emailLabel}
          placeholder={strings.emailLabel}
          aria-invalid={leadError ? "true" : undefined}
          value={email}
          onInput={(event) => setEmail(event.currentTarget.value)}
        />
        <button type="submit" class="lead-send" disabled={!email.trim() || lead === "sending"}>
          {strings.leaveEmail}
        </button>
      </div>
      {leadError && <p class="lead-error">{strings.leadInvalid}</p>}
    </form>
  );
}

/** Once the conversation closed: its transcript by e-mail, one button when the visitor left an address here, else the address and the button. */
function TranscriptOffer({ session, state, strings }: ViewProps): JSX.Element | null {
  const [email, setEmail] = useState("");
  const { transcript, lead } = state.handoff;
  if (transcript === "none") return null;
  if (transcript === "sent") return <p class="lead-done">{strings.transcriptSent}</p>;
  const busy = transcript === "sending";
  const known = lead === "saved";
  const submit = (event: Event) => {
    event.preventDefault();
    if (!busy && (known || email.trim())) void session.handoff.emailTranscript(known ? "" : email);
  };
  return (
    <form class="lead" onSubmit={submit}>
      <div class="lead-row">
        {!known && (
          <input
            type="email"
            required
            maxLength={320}
            autocomplete="email"
            aria-label={strings.emailLabel}
            placeholder={strings.emailLabel}
            aria-invalid={transcript === "invalid" ? "true" : undefined}
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
        )}
        <button type="submit" class="lead-send" disabled={busy || !(known || email.trim())}>
          {strings.transcriptOffer}
        </button>
      </div>
      {transcript === "limit" && <p class="lead-error">{strings.transcriptLimit}</p>}
      {transcript === "invalid" && <p class="lead-error">{strings.leadInvalid}</p>}
    </form>
  );
}

/**
 * What follows the messages in the log: "Talk to a person" under a low-confidence answer, the
 * operator's typing, the e-mail form while nobody is online, and the transcript once it closed.
 */
export function HandoffFooter({ session, state, strings }: ViewProps): JSX.Element | null {
  const { status, operatorTyping, lead, requesting } = state.handoff;
  const last = state.messages[state.messages.length - 1];
  const offer = status === "bot" && last?.role === "bot" && last.lowConfidence && !last.streaming;
  return (
    <>
      {offer && (
        <div class="handoff-offer">
          <button type="button" class="starter" disabled={requesting} onClick={() => void session.handoff.requestHuman()}>
            {strings.talkToPerson}
          </button>
        </div>
      )}
      {lead !== "none" && <LeadForm session={session} state={state} strings={strings} />}
      <TranscriptOffer session={session} state={state} strings={strings} />
      {operatorTyping !== null && (
        <p class="typing">
          <span class="dots" aria-hidden="true">
            <i />
            <i />
            <i />
          </span>
          {strings.operatorTyping(operatorTyping)}
        </p>
      )}
    </>
  );
}

/** The next opening in the visitor's own time and language: the time alone when it is today, else with the weekday. */
function backAt(iso: string, language: string): string {
  const at = new Date(iso);
  const today = at.toDateString() === new Date().toDateString();
  return at.toLocaleString(language, { ...(today ? {} : { weekday: "long" }), hour: "numeric", minute: "2-digit" });
}

/**
 * Outside office hours, before the visitor asks for anyone: that nobody is here, when someone is
 * back (in the visitor's time) and the agent's away message.
 */
export function AwayNotice({ state, strings, language }: { state: ChatState; strings: UiStrings; language: string }): JSX.Element | null {
  const availability = state.availability;
  if (!availability || availability.open_now || state.handoff.status === "human") return null;
  return (
    <div class="lead away">
      <p>
        <b>{strings.away(availability.next_open_at ? backAt(availability.next_open_at, language) : "")}</b>
      </p>
      {availability.away_message && <p dir="auto">{availability.away_message}</p>}
    </div>
  );
}
