import { Route, Router, Switch } from "wouter";
import { describeError } from "./api/client.js";
import { RealtimeProvider } from "./realtime/realtime-context.js";
import { SetPasswordScreen } from "./screens/set-password-screen.js";
import { Shell } from "./screens/shell.js";
import { SignInScreen } from "./screens/sign-in-screen.js";
import { SetupFlow } from "./setup/setup-flow.js";
import { OperatorProvider, useMeQuery } from "./session.js";

/** Everything behind the sign-in: the operator's session, one realtime connection, the shell. */
function SignedIn() {
  const me = useMeQuery();
  if (me.isPending) return <p className="pane-message">Loading…</p>;
  if (me.isError) {
    return (
      <p className="pane-message" role="alert">
        {describeError(me.error)}
      </p>
    );
  }
  if (!me.data) return <SignInScreen />;
  return (
    <OperatorProvider operator={me.data}>
      <RealtimeProvider key={me.data.id}>
        <Shell />
      </RealtimeProvider>
    </OperatorProvider>
  );
}

/** The console, served at /console (client routes under it). */
export function App() {
  return (
    <Router base="/console">
      <Switch>
        <Route path="/set-password">
          <SetPasswordScreen />
        </Route>
        <Route path="/setup" nest>
          <SetupFlow />
        </Route>
        <Route>
          <SignedIn />
        </Route>
      </Switch>
    </Router>
  );
}
