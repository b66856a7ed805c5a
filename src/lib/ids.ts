// Time-sortable identifiers: a UUIDv7 (48-bit milliseconds + randomness, monotonic in-process) in Crockford base32.

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/** 26 characters that sort in creation order, e.g. `01KAX3M6W9P8T2V5G7H4J3C1QZ`. */
export function sortableId(): string {
  const bytes = Bun.randomUUIDv7('buffer')
  let value = 0n
  for (const b of bytes) value = (value << 8n) | BigInt(b)
  let out = ''
  for (let i = 0; i < 26; i++) {
    out = ALPHABET[Number(value & 31n)] + out
    value >>= 5n
  }
  return out
}

/** A prefixed id such as `tkt_01KAX3M6W9P8T2V5G7H4J3C1QZ`. */
export function prefixedId<P extends string>(prefix: P): `${P}_${string}` {
  return `${prefix}_${sortableId()}`
}
