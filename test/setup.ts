// Preloaded by bun test (bunfig.toml): a fixed time zone, so nothing depends on the machine's.
process.env.TZ = 'UTC'
