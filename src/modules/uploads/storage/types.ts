// The storage interface both backends implement, and the shape of its keys (made here, checked before use).
/** Bytes being written under a key: nothing is readable under it until commit(). */
export interface StorageWriter {
  /** Resolves once the chunk may be let go of (backpressure: the caller waits for it). */
  write(chunk: Uint8Array): Promise<void>
  /** Makes the bytes readable under the key, whole; after a crash before it, nothing is there. */
  commit(): Promise<void>
  /** Gives up: whatever was written is removed. */
  abort(): Promise<void>
}

/** A byte range, both ends inclusive (as HTTP's Range header counts). */
export interface ByteRange {
  start: number
  end: number
}

export interface FileStorage {
  readonly kind: 'local' | 's3'
  begin(key: string): Promise<StorageWriter>
  /** The stored bytes (or a range of them); fails when nothing is stored under the key. */
  read(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array>>
  /** Removes the bytes under the key, and any partial write of them; nothing there is not an error. */
  remove(key: string): Promise<void>
  exists(key: string): Promise<boolean>
}

const KEY = /^[A-Za-z0-9_]{1,64}\/[0-9a-f]{32}$/

/** `<organization>/<128 random bits in hex>`: grouped by organization, guessable by nobody. */
export function newStorageKey(organizationId: string): string {
  return `${organizationId}/${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('hex')}`
}

/** Keys are ours; one that is not shaped like ours is never turned into a path or an object name. */
export function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`)
  return key
}
