// Loaded before anything else (main.ts imports it first): Elysia reads NODE_ENV once, when it loads, and
// outside "production" it pretty-prints every rejected value into its validation errors (a deep body then
// costs seconds and gigabytes). The served product never runs in that mode, whatever NODE_ENV says.
process.env.NODE_ENV = 'production'
