// The analyzer's options for the widget's manifest (tools/widget-api/manifest.ts runs its CLI with them): Lit's
// decorators read as fields and attributes, and the repository's package.json left as it is.
export default { litelement: true, packagejson: false };
