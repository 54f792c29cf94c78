/** Whether dist/server/listings.mjs was built from the sources as they are now (see current-bundle.js). */
export function bundleIsCurrent(root: URL): boolean;
