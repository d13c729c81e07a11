import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, Redirect, Route, Switch, useLocation } from "wouter";
import { AgentsScreen } from "../agents/agents-screen.js";
import { api, dataOf } from "../api/client.js";
import { AnalyticsScreen } from "../analytics/analytics-screen.js";
import { CuratedScreen } from "../curated/curated-screen.js";
import { AnswerTestsScreen } from "../answer-tests/answer-tests-screen.js";
import { canAskForNotifications } from "../inbox/alert-operator.js";
import { InboxScreen } from "../inbox/inbox-screen.js";
import { useNotifications } from "../inbox/use-notifications.js";
import { useWorkspaceLive } from "../inbox/use-workspace-live.js";
import { KnowledgeScreen } from "../knowledge/knowledge-screen.js";
import { MailBanner } from "../mail/mail-banner.js";
import { LeadsScreen } from "../leads/leads-screen.js";
import { ReviewScreen } from "../review/review-screen.js";
import { sections } from "../navigation.js";
import { useRealtime } from "../realtime/realtime-context.js";
import { SettingsScreen } from "../settings/settings-screen.js";
import { switchSession, useOperator } from "../session.js";
import { AvailabilityToggle } from "./availability-toggle.js";
import { PlaceholderScreen } from "./placeholder-screen.js";
import { SavedRepliesScreen } from "../saved-replies/saved-replies-screen.js";
import { ShortcutsDialog } from "../shortcuts/shortcuts-dialog.js";

const CONNECTION_LABELS = { connected: "Live", connecting: "Connecting…", unavailable: "Offline, retrying…", disconnected: "Offline" } as const;

function SignOutButton() {
  const queryClient = useQueryClient();
  const signOut = useMutation({
    // Ends the session; one the workspace's provider started goes on to the provider's sign-out page.
    mutationFn: async () => (await dataOf(api.POST("/api/v1/console/session/sign-out"))).data,
    onSuccess: ({ end_session_url }) => {
      if (end_session_url) window.location.assign(end_session_url);
    },
    onSettled: () => switchSession(queryClient, null),
  });
  return (
    <button type="button" className="link-button" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
      Sign out
    </button>
  );
}

/** Offers browser notifications for requests for a human, until the operator answers the browser's question. */
function NotificationOffer() {
  const [askable, setAskable] = useState(canAskForNotifications);
  if (!askable) return null;
  return (
    <button
      type="button"
      className="link-button"
      title="Browser notifications when a visitor asks for a person"
      onClick={() => void Notification.requestPermission().finally(() => setAskable(canAskForNotifications()))}>
      Turn on alerts
    </button>
  );
}

/** The signed-in console: the navigation and the section shown. */
export function Shell() {
  const operator = useOperator();
  const { state } = useRealtime();
  const [location] = useLocation();
  const announcement = useWorkspaceLive();
  const unreadNotifications = useNotifications().data?.unread_count ?? 0;
  return (
    <div className="console-frame">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <MailBanner />
      <div className="shell">
        <header className="sidebar">
          <p className="brand">Frontdesk</p>
          <nav aria-label="Console">
            <ul>
              {sections.map((section) => {
                const current = location === section.path || location.startsWith(`${section.path}/`);
                return (
                  <li key={section.path}>
                    <Link href={section.path} aria-current={current ? "page" : undefined}>
                      {section.label}
                      {section.path === "/inbox" && unreadNotifications > 0 && (
                        <>
                          {" "}
                          <span className="nav-count">{unreadNotifications}</span>
                          <span className="visually-hidden"> awaiting you</span>
                        </>
                      )}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
          <div className="sidebar-footer">
            <p className={`connection connection-${state}`} role="status">
              <span className="dot" aria-hidden="true" /> {CONNECTION_LABELS[state]}
            </p>
            <p className="operator-name">
              {operator.name} <span className="muted">({operator.role})</span>
            </p>
            <AvailabilityToggle />
            <NotificationOffer />
            <ShortcutsDialog />
            <SignOutButton />
          </div>
        </header>
        <p className="visually-hidden" aria-live="polite">
          {announcement}
        </p>
        <main id="main" className="content" tabIndex={-1}>
          <Switch>
            <Route path="/">
              <Redirect to="/inbox" replace />
            </Route>
            <Route path="/inbox">
              <InboxScreen conversationId={null} />
            </Route>
            <Route path="/inbox/:id">{(params) => <InboxScreen conversationId={params.id} />}</Route>
            <Route path="/agents" nest>
              <AgentsScreen />
            </Route>
            <Route path="/analytics" component={AnalyticsScreen} />
            <Route path="/settings" component={SettingsScreen} />
            <Route path="/knowledge" component={KnowledgeScreen} />
            <Route path="/curated" component={CuratedScreen} />
            <Route path="/answer-tests" component={AnswerTestsScreen} />
            <Route path="/leads" component={LeadsScreen} />
            <Route path="/review" component={ReviewScreen} />
            <Route path="/saved-replies" component={SavedRepliesScreen} />
            <Route>
              <PlaceholderScreen title="Not found" />
            </Route>
          </Switch>
        </main>
      </div>
    </div>
  );
}
