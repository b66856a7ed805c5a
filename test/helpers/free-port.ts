// A TCP port nobody listens on right now, for a server or service a test starts.
/** A port that was free a moment ago (bind to 0, read it, release it). */
export function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}
