/**
 * The renderer's Content-Security-Policy, the same as the meta tag in `src-renderer/index.html`, plus
 * `frame-ancestors`, which only works as a header. Sent by the web host and on dev-server responses.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:*",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');
