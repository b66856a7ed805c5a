// The uploads module's public entry: its routes — POST /api/v1/uploads (multipart, or a raw
// body with ?filename=), list, read, download (/content, ranges), a signed URL, delete, and the signed
// download itself (/api/v1/files/{id}, no token: the signature is the credential) — its cron task, and
// what other modules use of it: receiving a file as a stream, attaching uploads in a transaction, serving
// and removing their bytes.
// What other modules use, re-exported first.
export { type AttachTarget, attachUploadsInTx } from './attach.ts'
export { deleteAttachedUploadsInTx, deleteUploadBytes, markUploadDeletedInTx } from './delete-upload.ts'
export { openUploadStream, uploadContentResponse } from './download.ts'
export { UPLOAD_PURPOSES, type UploadPurpose, type UploadStatus } from './lifecycle.ts'
export { UPLOAD_EXAMPLE, UploadBody } from './model.ts'
export { discardReceivedUpload, receiveUpload } from './receive-upload.ts'
export { signUploadUrl } from './signed-url.ts'
export { findUpload } from './store.ts'
export { type UploadJson, type UploadRow, uploadJson } from './upload-json.ts'

import type { AppContext } from '../../context.ts'
import type { TaskDefinition } from '../../jobs/scheduler.ts'
import { uploadExpiryTask } from './jobs.ts'

export { uploadsRoutes, uploadsStreamedBodies } from './routes.ts'

/** This module's cron tasks. */
export function uploadsTasks(app: AppContext): TaskDefinition[] {
  return [uploadExpiryTask(app)]
}
