// compose.yaml (two instances on PostgreSQL + Redis behind Caddy) checked without Docker: every
// instance's environment is a configuration Switchboard accepts, the instances share what they must
// and differ in what they must, and the balancer sends to each of them and is the only trusted proxy.
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { loadConfig } from '../src/config.ts'
import { cidrContains, parseCidr } from '../src/lib/cidr.ts'

interface Service {
  image?: string
  build?: string
  environment?: Record<string, string>
  networks?: Record<string, { ipv4_address?: string }> | string[]
}
const compose = Bun.YAML.parse(await Bun.file(join(import.meta.dir, '../compose.yaml')).text()) as {
  services: Record<string, Service>
  configs: Record<string, { content: string }>
}
const SAMPLE = { POSTGRES_PASSWORD: 'pw', MASTER_KEY: 'ab'.repeat(32), S3_SECRET_ACCESS_KEY: 's3-secret' }
/** What `docker compose` makes of ${NAME:?message} with the sample values set. */
const substituted = (value: string) => value.replace(/\$\{(\w+)(:\?[^}]*)?\}/g, (_, name: keyof typeof SAMPLE) => SAMPLE[name])

const instances = Object.entries(compose.services).filter(([, service]) => service.build === '.')

test('two instances, each a configuration Switchboard accepts, sharing PostgreSQL, Redis, the S3 bucket and the master key', () => {
  expect(instances.map(([name]) => name)).toEqual(['switchboard-1', 'switchboard-2'])
  const configs = instances.map(([, service]) =>
    loadConfig(Object.fromEntries(Object.entries(service.environment!).map(([k, v]) => [k, substituted(v)])), {}, '/data'),
  )
  for (const config of configs) {
    expect(config.databaseUrl).toBe('postgres://switchboard:pw@postgres:5432/switchboard')
    expect(config.redisUrl).toBe('redis://redis:6379')
    expect(Buffer.from(config.masterKey!).toString('hex')).toBe(SAMPLE.MASTER_KEY)
    expect(config.s3).toEqual({
      bucket: 'switchboard',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: 'switchboard',
      secretAccessKey: SAMPLE.S3_SECRET_ACCESS_KEY,
    })
  }
  expect(new Set(configs.map((c) => c.instanceId)).size).toBe(2)
})

test("MinIO's root user is the instances' S3 key, and the bucket is made before they start", () => {
  const minio = compose.services.minio!.environment!
  const env = instances[0]![1].environment!
  expect(minio.MINIO_ROOT_USER).toBe(env.S3_ACCESS_KEY_ID!)
  expect(minio.MINIO_ROOT_PASSWORD).toBe(env.S3_SECRET_ACCESS_KEY!)
  const bucket = compose.services['minio-bucket'] as Service & { entrypoint: string[] }
  expect(bucket.entrypoint.join(' ')).toContain(`mc mb --ignore-existing local/${env.S3_BUCKET}`)
  for (const [, service] of instances)
    expect((service as Service & { depends_on: Record<string, { condition: string }> }).depends_on['minio-bucket']).toEqual({
      condition: 'service_completed_successfully',
    })
})

test('the balancer sends to every instance, checks /ready, and is the only trusted proxy', () => {
  const caddyfile = compose.configs.caddyfile!.content
  const upstreams = caddyfile
    .match(/reverse_proxy ([^{]+)\{/)![1]!
    .trim()
    .split(/\s+/)
  expect(upstreams).toEqual(instances.map(([name]) => `${name}:8080`))
  expect(caddyfile).toContain('health_uri /ready')
  const balancer = compose.services.balancer!.networks as Record<string, { ipv4_address: string }>
  const address = balancer.switchboard!.ipv4_address
  for (const [, service] of instances) {
    const trusted = service.environment!.TRUSTED_PROXIES!.split(',').map((c) => parseCidr(c)!)
    expect(trusted.some((cidr) => cidrContains(cidr, address))).toBe(true)
    // One address: IPv4 is kept mapped into 128 bits, so a /32 is a /128.
    expect(trusted.every((cidr) => cidr.prefix === 128)).toBe(true)
  }
})
