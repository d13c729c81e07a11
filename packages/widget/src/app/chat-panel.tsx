import type { ComponentChildren, JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { ChatMessage } from "./chat-message.js";
import type { ChatSession, ChatState } from "./chat-session.js";
import { safeHref } from "./markdown.js";
import { MarkdownView } from "./markdown-view.js";
import { RatingButtons } from "./rating-buttons.js";
import { systemText } from "./system-messages.js";
import type { UiStrings } from "./ui-strings.js";
import { AwayNotice, HandoffFooter, HeaderMenu } from "./handoff/handoff-views.js";
import type { CitationChip } from "./widget-api-client.js";
import { ACCEPTED_FILES, Files, PendingFiles, type PendingFile } from "./attachments.js";

let fileCount = 0;

function useChatState(session: ChatSession): ChatState {
  const [state, setState] = useState(session.state);
  useEffect(() => session.subscribe(setState), [session]);
  return state;
}

function chipLabel(citation: CitationChip): string {
  if (citation.title) return citation.title;
  try {
    const url = new URL(citation.url);
    return `${url.hostname}${url.pathname === "/" ? "" : url.pathname}`;
  } catch {
    return citation.url;
  }
}

function Citations({ citations, strings }: { citations: CitationChip[]; strings: UiStrings }): JSX.Element | null {
  if (citations.length === 0) return null;
  return (
    <ul class="chips" aria-label={strings.sources}>
      {citations.map((citation) => (
        <li key={citation.id}>
          <a class="chip" href={citation.url} target="_blank" rel="noopener nofollow" title={citation.url}>
            {chipLabel(citation)}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** One message of the conversation: the visitor's as text, the others as markdown, with their sources. */
export function Message({
  message,
  strings,
  onRetry,
  onRate,
}: {
  message: ChatMessage;
  strings: UiStrings;
  onRetry?: (key: string) => void;
  onRate?: (key: string, rating: "up" | "down") => void;
}): JSX.Element {
  const { unsent } = message;
  return (
    <div
      class={`msg ${message.role === "visitor" ? "from-visitor" : message.role === "system" ? "from-agent from-system" : "from-agent"}${unsent ? " unsent" : ""}`}
      aria-busy={message.streaming ? "true" : undefined}
    >
      {message.author && message.role != "system" && <span class="author">{message.author}</span>}
      {(message.content || message.role === "system" || message.streaming) && (
        <div class="bubble" dir="auto">
          {message.role === "visitor" ? <p>{message.content}</p> : message.role === "system" ? <p>{systemText(message, strings)}</p> : <MarkdownView source={message.content} />}
        </div>
      )}
      <Files files={message.files} />
      {!message.streaming && <Citations citations={message.citations} strings={strings} />}
      {message.role === "bot" && message.id && !message.streaming && onRate && (
        <RatingButtons ratings={["up", "down"]} labels={[strings.helpful, strings.notHelpful]} value={message.rating} onRate={(rating) => onRate(message.key, rating)} />
      )}
      {unsent && (
        <p class="unsent-note">
          <span>{strings.notSent}</span>
          <button type="button" class="link" onClick={() => onRetry?.(message.key)}>
            {strings.retry}
          </button>
        </p>
      )}
    </div>
  );
}

export interface ChatPanelProps {
  session: ChatSession;
  strings: UiStrings;
  /** The widget's language (a BCP 47 tag), for the times it shows. */
  language: string;
  /** Called once the panel has rendered open (to move focus into it). */
  onOpened(input: HTMLTextAreaElement | null): void;
  /** Shown between the conversation and the composer (the coupon and the satisfaction prompt). */
  footer?: ComponentChildren;
}

/** The chat dialog: header, the conversation log, starter prompts, the composer and the branding line. */
export function ChatPanel({ session, strings, language, onOpened, footer }: ChatPanelProps): JSX.Element | null {
  const state = useChatState(session);
  const [draft, setDraft] = useState("");
  const [files, setFiles] = useState<PendingFile[]>([]);
  const input = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const log = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (state.open) onOpened(input.current);
  }, [state.open]);
  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [state.messages, state.open]);

  if (!state.open) return null;
  const persona = state.agent?.persona.name || state.agent?.name || "";
  const hasVisitorMessage = state.messages.some((message) => message.role === "visitor");
  // Files are uploaded as soon as they are added (picked, pasted or dropped), and sent with the next message.
  const sent = files.flatMap((file) => (file.sent ? [file.sent] : []));
  const blocked = (!draft.trim() && !sent.length) || files.some((file) => !file.sent && !file.failed) || state.answering;
  const add = (list: FileList | null | undefined) => {
    for (const file of Array.from(list ?? [])) {
      const key = `f${++fileCount}`;
      const change = (patch: Partial<PendingFile>) => setFiles((all) => all.map((item) => (item.key === key ? { ...item, ...patch } : item)));
      setFiles((all) => [...all, { key, name: file.name, preview: file.type[0] == "i" ? URL.createObjectURL(file) : undefined, progress: 0 }]);
      session.upload(file, (progress) => change({ progress })).then(
        (attachment) => change({ sent: attachment }),
        () => change({ failed: true }),
      );
    }
  };
  const submit = (event: Event) => {
    event.preventDefault();
    if (blocked) return;
    void session.send(draft, sent);
    setDraft("");
    setFiles([]);
  };
  const brandUrl = state.branding?.show ? safeHref(state.branding.url) : null;
  const brandLogo = state.branding ? safeHref(state.branding.logo_url) : null;
  const branding = brandUrl ? state.branding : null;
  const replyTime = state.availability?.open_now && state.availability.reply_time;
  return (
    <section class="panel" role="dialog" aria-labelledby="fd-title" aria-modal="false">
      <header class="head">
        <span class="avatar" aria-hidden="true">
          {persona.slice(0, 1).toUpperCase()}
        </span>
        <div class="titles">
          <h2 id="fd-title">{persona || strings.starting}</h2>
          {state.handoff.status === "human" && state.handoff.assignee ? (
            <p class="subtitle">{state.handoff.assignee}</p>
          ) : replyTime ? (
            <p class="subtitle">{strings[`reply_${replyTime}`]}</p>
          ) : (
            state.agent && state.agent.name !== persona && <p class="subtitle">{state.agent.name}</p>
          )}
        </div>
        <HeaderMenu session={session} state={state} strings={strings} />
        <button type="button" class="close" aria-label={strings.closeChat} onClick={() => session.setOpen(false)}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12 19 17.6 17.6 19 12 13.4 6.4 19 5 17.6 10.6 12 5 6.4z" />
          </svg>
        </button>
      </header>
      <div class="log" role="log" aria-live="polite" aria-label={strings.conversation} ref={log}>
        {state.phase === "starting" && <p class="status">{strings.starting}</p>}
        <AwayNotice state={state} strings={strings} language={language} />
        {state.agent && state.messages.length === 0 && (
          <div class="msg from-agent">
            <div class="bubble">
              <p>{strings.greeting(persona)}</p>
            </div>
          </div>
        )}
        {state.messages.map((message) => (
          <Message key={message.key} message={message} strings={strings} onRetry={(key) => session.retry(key)} onRate={(key, rating) => void session.rate(key, rating)} />
        ))}
        <HandoffFooter session={session} state={state} strings={strings} />
        {state.agent && !hasVisitorMessage && state.handoff.status === "bot" && state.agent.starter_prompts.length > 0 && (
          <div class="starters">
            {state.agent.starter_prompts.map((prompt) => (
              <button key={prompt} type="button" class="starter" disabled={state.answering} onClick={() => void session.send(prompt)}>
                {prompt}
              </button>
            ))}
          </div>
        )}
      </div>
      {footer}
      {state.notice && (
        <div class="notice" role="alert">
          <span>{state.notice}</span>
          {state.phase === "idle" && (
            <button type="button" class="link" onClick={() => void session.start()}>
              {strings.retry}
            </button>
          )}
        </div>
      )}
      <PendingFiles files={files} strings={strings} remove={(key) => setFiles((all) => all.filter((file) => file.key !== key))} />
      <form
        class="composer"
        onSubmit={submit}
        onDragOver={(event) => event.preventDefault()}
        onDrop={(event) => {
          event.preventDefault();
          add(event.dataTransfer?.files);
        }}
      >
        <input
          ref={picker}
          type="file"
          accept={ACCEPTED_FILES}
          multiple
          hidden
          onChange={(event) => {
            add(event.currentTarget.files);
            event.currentTarget.value = "";
          }}
        />
        <button type="button" class="attach" aria-label={strings.attach} disabled={state.phase !== "ready"} onClick={() => picker.current?.click()}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M16.5 6v11.5a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10.5a1 1 0 0 1-2 0V6H10v9.5a2.5 2.5 0 0 0 5 0V5a4 4 0 0 0-8 0v12.5a5.5 5.5 0 0 0 11 0V6z" />
          </svg>
        </button>
        <textarea
          ref={input}
          rows={1}
          aria-label={strings.messageLabel}
          placeholder={strings.placeholder}
          maxLength={4000}
          value={draft}
          onInput={(event) => {
            setDraft(event.currentTarget.value);
            session.handoff.typed();
          }}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey && !event.isComposing) submit(event);
          }}
          onPaste={(event) => {
            if (event.clipboardData?.files.length) {
              event.preventDefault();
              add(event.clipboardData.files);
            }
          }}
        />
        <button type="submit" class="send" aria-label={strings.send} disabled={blocked || state.phase !== "ready"}>
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M3 20.5 21 12 3 3.5 3 10l12 2-12 2z" />
          </svg>
        </button>
      </form>
      {branding && brandUrl && (
        <a class="brand" href={brandUrl} target="_blank" rel="noopener nofollow">
          {branding.display_mode !== "label_only" && brandLogo && <img src={brandLogo} alt={branding.display_mode === "logo_only" ? branding.label : ""} width={14} height={14} />}
          {branding.display_mode !== "logo_only" && <span>{branding.label}</span>}
        </a>
      )}
    </section>
  );
}
