/** How often an open Settings page reads its lists again (nothing announces a token's use, another admin's change or a started conversation to it). */
export const REREAD_MS = 30_000;
