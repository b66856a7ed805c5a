// receiveUpload: a file streamed to storage, never held whole: its row is written first (`receiving`,
// one short transaction), then the bytes go to storage while being counted (UPLOAD_MAX_BYTES: 413 as
// soon as it is passed) and hashed, the first SNIFF_BYTES held back until the type is read from them and
// checked against the purpose (415 before anything is stored), then the row becomes `pending` with what
// the bytes said, in a second short transaction with its audit record. Whatever fails, the stored bytes
// and the row are removed; if the process dies meanwhile, the cron loop finds the receiving row.
import type { Ctx, UserActor } from '../../context.ts'
import { AppError, validationError } from '../../errors.ts'
import { prefixedId } from '../../lib/ids.ts'
import { appendAudit, auditActorOf } from '../audit/index.ts'
import { sanitizeFilename } from './filename.ts'
import type { UploadPurpose } from './lifecycle.ts'
import { assertPurposeAccepts } from './purposes.ts'
import { SNIFF_BYTES, type Sniffed, sniffContent } from './sniff.ts'
import { newStorageKey, type StorageWriter, storageOf } from './storage/index.ts'
import { deletePendingRow, deleteReceivingRow, insertUpload, isReceiving, markReceived } from './store.ts'
import type { UploadRow } from './upload-json.ts'

/**
 * A large upload's chunks are garbage as soon as they are stored, but the engine collects lazily: left
 * alone, a 200 MiB upload grows the process by 50 to 90 MiB of dead chunks before they go. A full
 * collection every 32 MiB received keeps that near 40 MiB; it costs a few milliseconds, so the process
 * runs at most four a second, whatever the number of uploads (uploads under 32 MiB never cause one).
 */
const COLLECT_EVERY_BYTES = 32 * 1024 * 1024
const COLLECT_SPACING_MS = 250
let lastCollection = 0

function collectGarbage(): void {
  const now = performance.now()
  if (now - lastCollection < COLLECT_SPACING_MS) return
  lastCollection = now
  Bun.gc(true)
}

export interface ReceiveInput {
  chunks: AsyncIterable<Uint8Array>
  /** As the client gave it; sanitized here. */
  filename: string
  purpose: UploadPurpose
}

export async function receiveUpload(ctx: Ctx<UserActor>, input: ReceiveInput): Promise<UploadRow> {
  const { actor } = ctx
  const now = ctx.clock.now()
  const row: UploadRow = {
    id: prefixedId('upl'),
    organization_id: actor.organizationId,
    filename: sanitizeFilename(input.filename),
    content_type: '',
    size_bytes: 0,
    sha256: '',
    width: null,
    height: null,
    purpose: input.purpose,
    status: 'receiving',
    storage_key: newStorageKey(actor.organizationId),
    expires_at: now + ctx.config.uploads.expiryMs,
    attached_type: null,
    attached_id: null,
    attached_at: null,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    deleted_by: null,
    purged_at: null,
  }
  await ctx.db.write('upload.begin', (tx) => insertUpload(tx, row))
  let writer: StorageWriter | undefined
  try {
    const stored = await storeBytes(ctx, row, input.chunks, (w) => {
      writer = w
    })
    const received: UploadRow = { ...row, ...stored, status: 'pending' }
    await ctx.db.write('upload.create', async (tx) => {
      // Swept as abandoned meanwhile (an upload slower than the cron's bound): its bytes are gone too.
      if ((await markReceived(tx, received)) === 0) throw abandoned()
      await appendAudit(tx, {
        organizationId: row.organization_id,
        actor: auditActorOf(actor),
        event: 'upload.created',
        target: { type: 'upload', id: row.id },
        details: {
          filename: received.filename,
          purpose: received.purpose,
          content_type: received.content_type,
          size_bytes: received.size_bytes,
        },
        request: actor.request,
        now,
      })
    })
    return received
  } catch (error) {
    // Storage failing because the cron loop swept the upload as abandoned (its partial file removed).
    const swept = !(error instanceof AppError) && !(await isReceiving(ctx.db, row.id).catch(() => true))
    await discard(ctx, row, writer)
    throw swept ? abandoned() : error
  }
}

function abandoned(): AppError {
  return new AppError('CONFLICT', 'The upload took too long and was abandoned: send it again')
}

/** Streams the bytes to storage; what they are (type, size, hash, image size) once all are stored. */
async function storeBytes(
  ctx: Ctx<UserActor>,
  row: UploadRow,
  chunks: AsyncIterable<Uint8Array>,
  opened: (writer: StorageWriter) => void,
): Promise<Pick<UploadRow, 'content_type' | 'size_bytes' | 'sha256' | 'width' | 'height'>> {
  const limit = ctx.config.uploads.maxBytes
  const hasher = new Bun.CryptoHasher('sha256')
  let size = 0
  let collectedAt = 0
  let head: Uint8Array[] = []
  let headBytes = 0
  let sniffed: Sniffed | undefined
  let writer: StorageWriter | undefined
  // The type is read and checked before the first byte is stored: a refused file never reaches storage.
  const decide = async (whole: boolean) => {
    const start = Buffer.concat(head)
    head = []
    sniffed = await sniffContent(start, row.filename, whole)
    assertPurposeAccepts(row.purpose, sniffed.contentType)
    writer = await storageOf(ctx).begin(row.storage_key)
    opened(writer)
    await writer.write(start)
  }
  for await (const chunk of chunks) {
    size += chunk.byteLength
    if (size > limit) throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`)
    hasher.update(chunk)
    if (size - collectedAt >= COLLECT_EVERY_BYTES) {
      collectedAt = size
      collectGarbage()
    }
    if (writer) await writer.write(chunk)
    else {
      head.push(chunk)
      headBytes += chunk.byteLength
      if (headBytes >= SNIFF_BYTES) await decide(false)
    }
  }
  if (size === 0) throw validationError([{ field: 'file', message: 'is empty' }], 'The file is empty')
  if (!writer) await decide(true)
  await writer!.commit()
  const found = sniffed as Sniffed
  return { content_type: found.contentType, size_bytes: size, sha256: hasher.digest('hex'), width: found.width, height: found.height }
}

/** Removes what a failed upload left: its bytes, then its row (else the cron loop does, later). */
async function discard(ctx: Ctx, row: UploadRow, writer: StorageWriter | undefined): Promise<void> {
  try {
    if (writer) await writer.abort()
    // Also when the bytes were committed already (the row then could not be recorded).
    await storageOf(ctx).remove(row.storage_key)
    await ctx.db.write('upload.discard', (tx) => deleteReceivingRow(tx, row.id))
  } catch (error) {
    ctx.log.warn('upload not cleaned up; the cron loop will', { upload_id: row.id, error: String(error) })
  }
}

/**
 * An upload recorded for a request that then failed (its Idempotency-Key was in use, or answered with an
 * earlier upload): no one has seen it, so its bytes and row go.
 */
export async function discardReceivedUpload(ctx: Ctx, row: UploadRow): Promise<void> {
  await storageOf(ctx).remove(row.storage_key)
  await ctx.db.write('upload.discard', (tx) => deletePendingRow(tx, row.id))
}
