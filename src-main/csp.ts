/**
 * The renderer's Content-Security-Policy: the meta tag in `src-renderer/index.html` word for word,
 * plus `frame-ancestors`, which only works as a header. Sent by the web host and on dev-server
 * responses. One string literal, so that scanners (electronegativity's CSP check) and readers see the
 * whole policy at once; csp.test.ts holds it equal to the meta tag.
 */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self' ws://127.0.0.1:*; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
