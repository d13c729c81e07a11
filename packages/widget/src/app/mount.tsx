// The lazily loaded part of the widget (assets/app-[hash].js): the chat panel, its session and the
// JavaScript API's implementation. The loader imports it and calls mount() once.
import { render } from "preact";
import { adoptStylesheet } from "../shared/adopt-stylesheet.js";
import { OPENED_ON_LOAD, type MountContext, type WidgetController } from "../shared/embed-context.js";
import { ChatPanel } from "./chat-panel.js";
import { ChatSession } from "./chat-session.js";
import { keepFocusInside } from "./focus-trap.js";
import { pageScrollLock } from "./page-scroll-lock.js";
import { PANEL_ADAPTIVE_CSS } from "./panel-adaptive-styles.js";
import { PANEL_CSS } from "./panel-styles.js";
import { HANDOFF_CSS } from "./handoff/handoff-styles.js";
import { Engagement } from "./engagement/engagement.js";
import { ENGAGEMENT_CSS } from "./engagement/engagement-styles.js";
import { EngagementFooter, RuleBubbleView } from "./engagement/engagement-views.js";
import { themeCss } from "./theme.js";
import { resolveUiLanguage, type UiLanguage } from "./ui-language.js";

export function mount(loaded: MountContext): WidgetController {
  // The conversation's closing (a handoff status) asks for satisfaction, as the page hears of it.
  const context: MountContext = {
    ...loaded,
    emit: (event, detail) => {
      loaded.emit(event, detail);
      if (event === "handoff" && (detail as { status?: unknown } | undefined)?.status === "closed") void engagement.askSatisfaction();
    },
  };
  const { root, launcher, panelSlot } = context;
  adoptStylesheet(root, PANEL_CSS);
  adoptStylesheet(root, PANEL_ADAPTIVE_CSS);
  adoptStylesheet(root, HANDOFF_CSS);
  adoptStylesheet(root, ENGAGEMENT_CSS);
  const theme = adoptStylesheet(root, "");
  const session = new ChatSession(context);
  const engagement = new Engagement(context, session);
  let wasOpen = false;
  // Opened by the visitor or the page's own call: focus goes into the panel. Opened by data-open as
  // the page loads: the page keeps its focus (a dialog taking it unasked would lose a keyboard user).
  let focusOnOpen = true;
  const scrollLock = pageScrollLock();
  const frame = panelSlot.parentElement ?? panelSlot;
  let ui: UiLanguage = resolveUiLanguage(context.options.language, undefined, navigator.languages);
  /** Speaks `next` (first, and again when init names the agent's default language). */
  const speak = (next: UiLanguage) => {
    ui = next;
    session.strings = next.strings;
    engagement.strings = next.engagement;
    frame.lang = next.language;
    frame.dir = next.dir;
  };
  speak(ui);
  const draw = () =>
    render(
      <>
        <ChatPanel session={session} strings={ui.strings} language={ui.language} onOpened={(input) => (focusOnOpen ? input?.focus() : undefined)} footer={<EngagementFooter engagement={engagement} />} />
        <RuleBubbleView engagement={engagement} session={session} />
      </>,
      panelSlot,
    );

  // The agent's language and colour are applied when the agent arrives, not on every update (each streamed token is one).
  let appliedAgent: typeof session.state.agent = null;
  session.subscribe((state) => {
    if (state.agent && state.agent !== appliedAgent) {
      appliedAgent = state.agent;
      const language = resolveUiLanguage(context.options.language, state.agent.language_default, navigator.languages);
      if (language.language !== ui.language) {
        speak(language);
        draw();
      }
      theme.replaceSync(themeCss(state.agent.theme.primary));
    }
    const strings = ui.strings;
    scrollLock.sync(state.open);
    launcher.setAttribute("aria-expanded", String(state.open));
    const name = state.agent?.persona.name || state.agent?.name;
    launcher.setAttribute("aria-label", state.open ? strings.closeChat : name ? strings.openChat(name) : strings.launcher);
    // Focus goes back to the launcher when the dialog closes.
    if (wasOpen && !state.open && root.contains(launcher)) launcher.focus();
    wasOpen = state.open;
  });

  root.addEventListener("keydown", (event) => {
    if ((event as KeyboardEvent).key === "Escape" && session.state.open) {
      event.stopPropagation();
      session.setOpen(false);
    }
  });

  keepFocusInside(root, launcher, () => session.state.open);
  draw();
  void engagement.startRules();

  return {
    open: (source?: unknown) => {
      focusOnOpen = source !== OPENED_ON_LOAD;
      session.setOpen(true);
    },
    close: () => session.setOpen(false),
    toggle: () => {
      focusOnOpen = true;
      session.setOpen(!session.state.open);
    },
    send: (text: string) => void session.send(String(text)),
    consent: () => void engagement.startRules(),
    setContext: (added: unknown) => engagement.setContext(added),
    applyCoupon: (code: unknown) => void engagement.applyCoupon(code),
    reset: () => {
      engagement.forget();
      session.forget();
    },
    identify: (identity: unknown) => session.identify(identity),
  };
}
