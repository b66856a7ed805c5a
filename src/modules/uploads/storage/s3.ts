// Uploaded bytes in an S3-compatible bucket through Bun's built-in S3Client (path-style requests to
// S3_ENDPOINT when given). A file is streamed as a multipart upload of PART_SIZE parts, waiting for each
// part to be sent before reading on, so memory holds about one part whatever the file's size. An object
// appears only when the upload completes. Bun 1.4.5's writer cannot abort a multipart upload (end(error)
// completes it), so abort() completes and then deletes the object; the parts of an upload cut off by a
// crash stay invisible in the bucket until its AbortIncompleteMultipartUpload lifecycle rule removes them.
import { S3Client } from 'bun'
import type { S3Config } from '../../../config.ts'
import { type ByteRange, checkedKey, type FileStorage, type StorageWriter } from './types.ts'

/** S3's smallest part (but the last), 5 MiB: the least held in memory (10,000 parts of it pass 4 GiB, the largest UPLOAD_MAX_BYTES). */
export const PART_SIZE = 5 * 1024 * 1024

export function s3Storage(config: S3Config): FileStorage {
  const client = new S3Client({
    bucket: config.bucket,
    region: config.region,
    accessKeyId: config.accessKeyId,
    secretAccessKey: config.secretAccessKey,
    ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint, virtualHostedStyle: false }),
  })
  const object = (key: string) => client.file(checkedKey(key))
  return {
    kind: 's3',
    async begin(key): Promise<StorageWriter> {
      const file = object(key)
      const writer = file.writer({ partSize: PART_SIZE, retry: 3, type: 'application/octet-stream' })
      // Bun's writer buffers everything it is given (write() never pushes back): flushing each part and
      // waiting for it is the backpressure.
      let buffered = 0
      let ended = false
      return {
        async write(chunk) {
          writer.write(chunk)
          buffered += chunk.byteLength
          if (buffered >= PART_SIZE) {
            buffered = 0
            await writer.flush()
          }
        },
        async commit() {
          ended = true
          await writer.end()
        },
        async abort() {
          if (!ended) {
            ended = true
            await Promise.resolve(writer.end()).catch(() => undefined)
          }
          await file.delete().catch(() => undefined)
        },
      }
    },
    async read(key, range?: ByteRange) {
      const file = object(key)
      return (range ? file.slice(range.start, range.end + 1) : file).stream()
    },
    async remove(key) {
      await object(key).delete()
    },
    exists: (key) => object(key).exists(),
  }
}
