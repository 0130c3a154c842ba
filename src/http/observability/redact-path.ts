/** An API token anywhere in a path: the reconciliation service carries one there for clients that cannot send a header. */
const tokenInPath = /orgr_[A-Za-z0-9_-]+/g;

/** The path as logs may keep it: every token replaced by its prefix, so a log line never holds a credential. */
export function redactPath(path: string): string {
  return path.replace(tokenInPath, 'orgr_[redacted]');
}
