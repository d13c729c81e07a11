/**
 * A library loaded the first time a process needs it rather than when it starts. `serve` registers
 * every route, so every module they import is loaded before it listens; the libraries of rarer
 * paths (mail parsing and IMAP, SMTP, image and file-type sniffing, Web Push, the Pusher client, QR
 * codes) cost about 0.8 s of CPU there (bench/start.mjs), and each `frontdesk` command paid it.
 * A load that fails is tried again at the next use.
 */
export function loadOnFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    if (!loading) {
      const started = load();
      loading = started;
      started.catch(() => {
        if (loading === started) loading = null;
      });
    }
    return loading;
  };
}
