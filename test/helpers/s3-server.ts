// A child process running s3rver (npm, an S3-compatible server keeping objects on disk) on loopback:
// `bun test/helpers/s3-server.ts PORT DIR BUCKET`. Prints "ready" once it answers. Its own process, so the
// memory a test measures is the server's under test, never the storage's.
import S3rver from 's3rver'

const [port, directory, bucket] = process.argv.slice(2)
if (!port || !directory || !bucket) throw new Error('usage: s3-server.ts PORT DIR BUCKET')
const server = new S3rver({
  port: Number(port),
  address: '127.0.0.1',
  directory,
  silent: true,
  configureBuckets: [{ name: bucket, configs: [] }],
})
await server.run()
console.log('ready')
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)))
