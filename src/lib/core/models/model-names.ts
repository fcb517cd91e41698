// Names a model may carry into a URL the page builds. A site model is a folder served as
// /models/<name>/ (scripts/site-routes.ts serves the same rule), so a name must stay one path segment:
// no slashes, no `..`, nothing a URL would re-read. Shared by the share-link validator, the model
// picker, the model client and the server.

const SITE_MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Whether `name` may name a folder under /models/. */
export function isSiteModelName(name: string): boolean {
  return SITE_MODEL_NAME.test(name) && !name.includes('..');
}
