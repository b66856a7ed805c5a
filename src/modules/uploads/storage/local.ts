// Uploaded bytes on the local disk, under DATA_DIR/files/<key>. Each file is written under
// files/.partial/ first, synced, then renamed into place: a crash never leaves half a file under its
// final name, and the partial one is found by its key (remove() takes both).
import { mkdir, open, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { type ByteRange, checkedKey, type FileStorage, type StorageWriter } from './types.ts'

export function localStorage(root: string): FileStorage {
  const finalPath = (key: string) => join(root, checkedKey(key))
  const partialPath = (key: string) => join(root, '.partial', `${checkedKey(key).replace('/', '_')}.part`)
  return {
    kind: 'local',
    async begin(key): Promise<StorageWriter> {
      const partial = partialPath(key)
      await mkdir(dirname(partial), { recursive: true })
      // wx: a key is used once; an existing file would mean two writers.
      const handle = await open(partial, 'wx', 0o600)
      let closed = false
      const close = async () => {
        if (closed) return
        closed = true
        await handle.close()
      }
      return {
        async write(chunk) {
          // A short write is finished by the loop: write() may take less than it was given.
          for (let offset = 0; offset < chunk.byteLength; ) offset += (await handle.write(chunk, offset)).bytesWritten
        },
        async commit() {
          await handle.datasync()
          await close()
          const target = finalPath(key)
          await mkdir(dirname(target), { recursive: true })
          await rename(partial, target)
        },
        async abort() {
          await close().catch(() => undefined)
          await rm(partial, { force: true })
        },
      }
    },
    async read(key, range?: ByteRange) {
      const file = Bun.file(finalPath(key))
      if (!(await file.exists())) throw new Error('no bytes are stored under this key')
      return (range ? file.slice(range.start, range.end + 1) : file).stream()
    },
    async remove(key) {
      await Promise.all([rm(finalPath(key), { force: true }), rm(partialPath(key), { force: true })])
    },
    exists: (key) => Bun.file(finalPath(key)).exists(),
  }
}
