// RFC 4648 base32 and RFC 4226 / 6238 one-time passwords, written here from the RFCs (node:crypto
// only), so tests check our TOTP against an implementation independent of `otpauth`.
import { createHmac } from 'node:crypto'

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** RFC 4648 base32 (upper or lower case, padding optional) -> bytes. */
export function base32Decode(input: string): Buffer {
  const clean = input.toUpperCase().replace(/=+$/, '')
  const out: number[] = []
  let bits = 0
  let value = 0
  for (const char of clean) {
    const index = BASE32.indexOf(char)
    if (index < 0) throw new Error(`not base32: ${JSON.stringify(char)}`)
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

/** RFC 4226 HOTP: HMAC-SHA1 over the 8-byte big-endian counter, dynamic truncation, `digits` digits. */
export function hotp(key: Uint8Array, counter: number, digits = 6): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac('sha1', key).update(message).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!
  return String(binary % 10 ** digits).padStart(digits, '0')
}

/** The RFC 6238 time step (30 s, T0 = 0) of a time in milliseconds. */
export const stepOf = (ms: number) => Math.floor(ms / 1000 / 30)

/** The 6-digit TOTP code of a base32 secret for a given step. */
export const totpForStep = (secretBase32: string, step: number, digits = 6) => hotp(base32Decode(secretBase32), step, digits)

/** The 6-digit TOTP code of a base32 secret at a time in milliseconds. */
export const totpAt = (secretBase32: string, ms: number, digits = 6) => totpForStep(secretBase32, stepOf(ms), digits)
