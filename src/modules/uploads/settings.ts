// The uploads module's settings (assembled by src/config.ts): size and lifetime limits, and the S3 bucket files may be kept in.
import { Type, type TSchema } from '@sinclair/typebox'
import { ConfigError, MiB, parseUrl, type SettingValues } from '../../lib/settings.ts'

export const SETTINGS = {
  UPLOAD_MAX_BYTES: Type.Integer({
    minimum: 1024,
    maximum: 4096 * MiB,
    default: 25 * MiB,
    description:
      "Largest file `POST /api/v1/uploads` (or a raw recording) accepts, in bytes (1024 to 4 GiB; default 25 MiB): 413 before anything is stored, when `Content-Length` says so or as soon as the limit is passed. Bun's own cap is the largest of this, `MAX_BODY_BYTES` and `IMPORT_MAX_BYTES`, plus 4 MiB.",
  }),
  UPLOAD_EXPIRY: Type.Integer({
    minimum: 1,
    maximum: 7 * 86_400,
    default: 3600,
    description: 'Seconds an upload may stay unattached (1 to 7 days); the cron loop then marks it `expired` and removes its bytes.',
  }),
  SIGNED_URL_TTL: Type.Integer({
    minimum: 1,
    maximum: 86_400,
    default: 300,
    description: 'Lifetime in seconds of the signed download URLs of uploads and recordings (1 to 86400).',
  }),
  S3_BUCKET: Type.String({
    minLength: 1,
    'x-default': 'none: files are kept under DATA_DIR/files',
    description:
      "An S3 bucket for uploaded files and recordings instead of the local disk. Required with `REDIS_URL` (several instances): a file on one instance's disk is missing on the others.",
  }),
  S3_ENDPOINT: Type.String({
    'x-default': "AWS's endpoint for S3_REGION",
    description: 'Base URL of an S3-compatible service (MinIO, Cloudflare R2, Ceph, ...), addressed path-style.',
  }),
  S3_REGION: Type.String({ minLength: 1, default: 'us-east-1', description: "The bucket's region, as the S3 signatures name it." }),
  S3_ACCESS_KEY_ID: Type.String({ minLength: 1, 'x-default': '(none)', description: 'The S3 access key id; required with `S3_BUCKET`.' }),
  S3_SECRET_ACCESS_KEY: Type.String({
    minLength: 1,
    'x-default': '(none)',
    'x-secret': true,
    description: 'The S3 secret key; required with `S3_BUCKET`. Never logged.',
  }),
} satisfies Record<string, TSchema>

/** An S3-compatible bucket for uploaded files. */
export interface S3Config {
  readonly bucket: string
  /** Undefined: AWS's own endpoint for the region. */
  readonly endpoint: string | undefined
  readonly region: string
  readonly accessKeyId: string
  readonly secretAccessKey: string
}

export interface UploadsSlice {
  readonly uploads: {
    readonly maxBytes: number
    /** An unattached upload expires this long after it was made. */
    readonly expiryMs: number
    readonly signedUrlTtlS: number
  }
  /** Where uploaded files are kept: undefined keeps them under DATA_DIR/files. */
  readonly s3: S3Config | undefined
}

export function uploadsSlice(values: SettingValues): UploadsSlice {
  return {
    uploads: Object.freeze({
      maxBytes: values.UPLOAD_MAX_BYTES as number,
      expiryMs: (values.UPLOAD_EXPIRY as number) * 1000,
      signedUrlTtlS: values.SIGNED_URL_TTL as number,
    }),
    s3: parseS3(values),
  }
}

function parseS3(values: SettingValues): S3Config | undefined {
  if (values.S3_BUCKET === undefined) {
    const stray = (['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).find((name) => values[name] !== undefined)
    if (stray) throw new ConfigError(`${stray} is set but S3_BUCKET is not: files would stay on the local disk`)
    return undefined
  }
  const missing = (['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => values[name] === undefined)
  if (missing.length > 0) throw new ConfigError(`${missing.join(' and ')} must be set when S3_BUCKET is`)
  return Object.freeze({
    bucket: values.S3_BUCKET as string,
    endpoint: values.S3_ENDPOINT === undefined ? undefined : parseUrl('S3_ENDPOINT', values.S3_ENDPOINT as string),
    region: values.S3_REGION as string,
    accessKeyId: values.S3_ACCESS_KEY_ID as string,
    secretAccessKey: values.S3_SECRET_ACCESS_KEY as string,
  })
}
