// The link of an e-mailed operator's reply opens the site's page with `#frontdesk_resume=<token>`
// (or `?frontdesk_resume=` where a site drops fragments): init sends the token once and the
// conversation it names is resumed. The fragment never reaches the site's server; the widget removes
// it from the address bar, so neither a reload nor a shared URL carries it on.

const PARAMETER = "frontdesk_resume";
const TOKEN = /^[A-Za-z0-9_.-]{16,1024}$/;

/** The resume token in the page's address, if any. */
export function readResumeToken(): string | null {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, "")).get(PARAMETER);
  const token = fromHash ?? new URLSearchParams(location.search).get(PARAMETER);
  return token && TOKEN.test(token) ? token : null;
}

/** Takes the token out of the address bar (history.replaceState: no reload, no new entry). */
export function forgetResumeToken(): void {
  try {
    const url = new URL(location.href);
    const hash = new URLSearchParams(url.hash.replace(/^#/, ""));
    hash.delete(PARAMETER);
    url.searchParams.delete(PARAMETER);
    url.hash = hash.toString();
    history.replaceState(history.state, "", url.toString());
  } catch {
    // A page that forbids it keeps the token in its address; it expires.
  }
}
