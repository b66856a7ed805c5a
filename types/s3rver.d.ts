// s3rver (a test-only S3-compatible server) ships no types: the part test/helpers/s3-server.ts uses.
declare module 's3rver' {
  export default class S3rver {
    constructor(options: {
      port: number
      address: string
      directory: string
      silent?: boolean
      configureBuckets?: Array<{ name: string; configs: unknown[] }>
    })
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
