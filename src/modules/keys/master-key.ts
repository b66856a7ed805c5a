// The master key (MASTER_KEY, else DATA_DIR/master.key made on first start with mode 0600) and the
// AES-256-GCM sealing of secrets at rest with it.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { ConfigError, parseMasterKey, type Config } from '../../config.ts'

/** The master key cannot be read, or cannot open what it should. */
export class MasterKeyError extends Error {
  override name = 'MasterKeyError'
}

/** MASTER_KEY when set; else the key file, created when `create` and missing. */
export function loadMasterKey(config: Config, options: { create: boolean }): Uint8Array {
  if (config.masterKey) return config.masterKey
  const path = config.masterKeyPath
  if (existsSync(path)) {
    if ((statSync(path).mode & 0o077) !== 0) throw new MasterKeyError(`${path} must not be readable by group or others (chmod 600 ${path})`)
    try {
      return parseMasterKey(readFileSync(path, 'utf8').trim())
    } catch (error) {
      if (error instanceof ConfigError) throw new MasterKeyError(`${path} does not hold a master key: ${error.message}`)
      throw error
    }
  }
  if (!options.create) throw new MasterKeyError(`no master key: set MASTER_KEY or start the server once to create ${path}`)
  const key = new Uint8Array(randomBytes(32))
  // 'wx': fails if another process created it meanwhile, rather than replacing a key in use.
  writeFileSync(path, Buffer.from(key).toString('base64') + '\n', { mode: 0o600, flag: 'wx' })
  return key
}

/** Encrypts `plaintext`, bound to `context` (a value that must match on opening, e.g. the key id). */
export function seal(masterKey: Uint8Array, plaintext: Uint8Array, context: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv)
  cipher.setAAD(Buffer.from(context))
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64')
}

export function unseal(masterKey: Uint8Array, sealed: string, context: string): Uint8Array {
  const bytes = Buffer.from(sealed, 'base64')
  try {
    const decipher = createDecipheriv('aes-256-gcm', masterKey, bytes.subarray(0, 12))
    decipher.setAAD(Buffer.from(context))
    decipher.setAuthTag(bytes.subarray(bytes.length - 16))
    return new Uint8Array(Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]))
  } catch {
    throw new MasterKeyError(
      'a secret could not be decrypted: the master key (MASTER_KEY or DATA_DIR/master.key) is not the one it was encrypted with',
    )
  }
}
