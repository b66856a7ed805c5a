// Lets TypeScript accept the browser bundle that src/http/docs-page.ts imports `with { type: 'file' }`:
// Bun embeds the file in the binary and the import is its path.
declare module '*/dist/browser/standalone.js' {
  const path: string
  export default path
}
