// Where uploaded bytes live, behind one small interface: the local disk under DATA_DIR/files, or an
// S3-compatible bucket when S3_BUCKET is set (required for several instances). Keys are made here, at
// random: nothing outside can guess one, and no part of one comes from the client (its filename).
import type { Config } from '../../../config.ts'
import { localStorage } from './local.ts'
import { s3Storage } from './s3.ts'
import type { FileStorage } from './types.ts'

export { type ByteRange, checkedKey, type FileStorage, newStorageKey, type StorageWriter } from './types.ts'

// One storage per configuration (an app, or a test's app): the S3 client keeps its connections.
const storages = new WeakMap<Config, FileStorage>()

export function storageOf(app: { readonly config: Config }): FileStorage {
  let storage = storages.get(app.config)
  if (!storage) {
    const { s3, dataDir } = app.config
    storage = s3 ? s3Storage(s3) : localStorage(`${dataDir}/files`)
    storages.set(app.config, storage)
  }
  return storage
}
