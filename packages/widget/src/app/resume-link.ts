// The link of an e-mailed operator's reply opens the site's page with `#frontdesk_resume=<token>`:
// the first init sends the token and the conversation it names is resumed. A fragment never reaches
// the site's server; the widget takes it out of the address bar (no reload, no history entry), so
// neither a reload nor a shared URL carries it on. The server checks the token (its length too).

/** The resume token in the page's fragment, taken out of the address bar; undefined without one. */
export function takeResumeToken(): string | undefined {
  const token = /^#frontdesk_resume=([\w.-]+)$/.exec(location.hash)?.[1];
  if (token) history.replaceState(history.state, "", location.pathname + location.search);
  return token;
}
