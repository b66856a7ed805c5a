// Lets TypeScript accept `import sql from './x.sql' with { type: 'text' }`, which Bun bundles as a string.
declare module '*.sql' {
  const text: string
  export default text
}
