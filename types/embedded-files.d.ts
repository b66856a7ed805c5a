// Lets TypeScript accept the browser bundle that src/http/docs-page.ts imports `with { type: 'file' }`:
// Bun embeds the file in the binary and the import is its path.
declare module '*/dist/browser/standalone.js' {
  const path: string
  export default path
}

// The dashboard's built files (src/modules/dashboard/assets.ts), embedded the same way.
declare module '*/dashboard/dist/app.js' {
  const path: string
  export default path
}
declare module '*/dashboard/dist/app.css' {
  const path: string
  export default path
}
declare module '*/dashboard/dist/page.html.txt' {
  const text: string
  export default text
}
