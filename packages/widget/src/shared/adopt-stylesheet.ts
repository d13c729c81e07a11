/**
 * Adds CSS to a shadow root as a constructed stylesheet: no <style> element and no style attribute,
 * so a page's Content-Security-Policy needs no 'unsafe-inline' for it. Returns the sheet, whose
 * rules can be replaced later (the agent's theme).
 */
export function adoptStylesheet(root: ShadowRoot, css: string): CSSStyleSheet {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(css);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  return sheet;
}
