// The runtime's ceiling: a bare Bun.serve returning a fixed body, no framework, nothing else.
const body = process.env.BODY ?? '{}'
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT),
  fetch: () => new Response(body, { headers: { 'content-type': 'application/json;charset=utf-8' } }),
})
process.on('SIGTERM', () => {
  server.stop(true)
  process.exit(0)
})
