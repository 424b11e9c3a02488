// Redoc 3 signs its pages "API docs by Redocly" with a logo it fetches from cdn.redoc.ly at run
// time. The docs pages load nothing from another origin (their Content-Security-Policy refuses
// it, and each refusal is an error in the browser's console), so the logo's address is
// replaced, in Redoc's own script, by an inline image of the same name.
const REMOTE_LOGO = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;

const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="56" height="16" viewBox="0 0 56 16">' +
  '<text x="0" y="12" font-family="Helvetica, Arial, sans-serif" font-size="13" font-weight="700" fill="#0044d4">Redocly</text></svg>';

/** A data: URL (the pages allow `img-src data:`); percent-encoded, so it is safe inside any JS string. */
export const inlineRedocLogo = `data:image/svg+xml,${encodeURIComponent(LOGO_SVG)}`;

/** Redoc's script (or a page that inlines it) with the remote logo replaced by the inline one. */
export function withInlineRedocLogo(script: string): string {
  return script.replace(REMOTE_LOGO, inlineRedocLogo);
}
