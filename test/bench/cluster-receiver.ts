// Bench helper process: webhook-receiver.ts without Bun.serve's 10-second idle timeout. On PostgreSQL the
// backlog of cluster-webhooks.ts can take longer than 10 s to create while the receiver holds its first
// answers: cut off, those would come back as failed attempts and retries, and spoil the exactly-once count.
const serve = Bun.serve
;(Bun as { serve: typeof Bun.serve }).serve = ((options: Parameters<typeof Bun.serve>[0]) =>
  serve({ idleTimeout: 0, ...options } as Parameters<typeof Bun.serve>[0])) as typeof Bun.serve
await import('./webhook-receiver.ts')
