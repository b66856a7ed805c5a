// The master key (src/modules/keys/master-key.ts): sealing secrets with AES-256-GCM, loading or creating the key file, and signing keys kept sealed at rest.
import { describe, expect, test } from 'bun:test'
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadConfig } from '../../../src/config.ts'
import { type Keyring, loadMasterKey, MasterKeyError, seal, unseal } from '../../../src/modules/keys/index.ts'
import { makeTestApp, tempDirs } from '../../helpers/app.ts'

const newDir = tempDirs('switchboard-master-key-')

const KEY_A_HEX = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff'
const KEY_B_HEX = 'ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100'
const KEY_A = new Uint8Array(Buffer.from(KEY_A_HEX, 'hex'))
const KEY_B = new Uint8Array(Buffer.from(KEY_B_HEX, 'hex'))
const WRONG_KEY_MESSAGE = 'is not the one it was encrypted with'

const text = (s: string) => new TextEncoder().encode(s)

/** Runs `fn`, expecting it to throw; returns what it threw. */
function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('seal and unseal', () => {
  test('round trip', () => {
    const plaintext = text('-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----\n')
    const sealed = seal(KEY_A, plaintext, 'kid-1')
    expect(sealed).toMatch(/^[A-Za-z0-9+/]+=*$/)
    expect(sealed).not.toContain('PRIVATE KEY')
    expect(Buffer.from(sealed, 'base64').toString('latin1')).not.toContain('secret')
    // iv (12) + ciphertext (same length as the plaintext) + tag (16)
    expect(Buffer.from(sealed, 'base64')).toHaveLength(12 + plaintext.length + 16)
    expect(unseal(KEY_A, sealed, 'kid-1')).toEqual(plaintext)
  })

  test('an empty secret and a binary one survive the round trip', () => {
    expect(unseal(KEY_A, seal(KEY_A, new Uint8Array(0), 'ctx'), 'ctx')).toEqual(new Uint8Array(0))
    const binary = Uint8Array.from([0, 255, 1, 254, 0, 0, 128])
    expect(unseal(KEY_B, seal(KEY_B, binary, 'ctx'), 'ctx')).toEqual(binary)
  })

  test('sealing the same secret twice gives different ciphertexts (fresh IV)', () => {
    const a = seal(KEY_A, text('same'), 'kid')
    const b = seal(KEY_A, text('same'), 'kid')
    expect(a).not.toBe(b)
    expect(unseal(KEY_A, a, 'kid')).toEqual(text('same'))
    expect(unseal(KEY_A, b, 'kid')).toEqual(text('same'))
  })

  test.each([
    ['another key', KEY_B, 'kid-1'],
    ['another context', KEY_A, 'kid-2'],
    ['an empty context', KEY_A, ''],
    ['another key and context', KEY_B, 'kid-2'],
  ] as const)('unsealing with %s throws MasterKeyError naming the master key', (_, key, context) => {
    const sealed = seal(KEY_A, text('secret'), 'kid-1')
    const error = thrown(() => unseal(key, sealed, context))
    expect(error).toBeInstanceOf(MasterKeyError)
    expect((error as Error).name).toBe('MasterKeyError')
    expect((error as Error).message).toContain('master key')
    expect((error as Error).message).toContain(WRONG_KEY_MESSAGE)
  })

  test.each([
    ['the IV', 0],
    ['the ciphertext', 12],
    ['the tag', -1],
  ] as const)('a flipped bit in %s is detected', (_, index) => {
    const bytes = Buffer.from(seal(KEY_A, text('secret value'), 'kid'), 'base64')
    const at = index < 0 ? bytes.length + index : index
    bytes[at] = bytes[at]! ^ 0x01
    expect(() => unseal(KEY_A, bytes.toString('base64'), 'kid')).toThrow(MasterKeyError)
  })

  test.each([
    ['truncated', (s: string) => Buffer.from(s, 'base64').subarray(0, 20).toString('base64')],
    ['extended', (s: string) => Buffer.concat([Buffer.from(s, 'base64'), Buffer.from([0])]).toString('base64')],
    ['empty', () => ''],
    ['not base64 at all', () => '!!!!'],
  ] as const)('a %s ciphertext throws MasterKeyError', (_, tamper) => {
    const sealed = seal(KEY_A, text('secret value'), 'kid')
    expect(() => unseal(KEY_A, tamper(sealed), 'kid')).toThrow(MasterKeyError)
  })
})

describe('loadMasterKey', () => {
  test('MASTER_KEY (hex) is used as is and no file is written', () => {
    const dir = newDir()
    const config = loadConfig({ DATA_DIR: dir, MASTER_KEY: KEY_A_HEX })
    expect(loadMasterKey(config, { create: true })).toEqual(KEY_A)
    expect(existsSync(join(dir, 'master.key'))).toBe(false)
  })

  test('MASTER_KEY (base64) is used as is', () => {
    const dir = newDir()
    const config = loadConfig({ DATA_DIR: dir, MASTER_KEY: Buffer.from(KEY_B).toString('base64') })
    expect(loadMasterKey(config, { create: false })).toEqual(KEY_B)
    expect(existsSync(join(dir, 'master.key'))).toBe(false)
  })

  test('MASTER_KEY wins over an existing key file', () => {
    const dir = newDir()
    writeFileSync(join(dir, 'master.key'), KEY_B_HEX + '\n', { mode: 0o600 })
    expect(loadMasterKey(loadConfig({ DATA_DIR: dir, MASTER_KEY: KEY_A_HEX }), { create: true })).toEqual(KEY_A)
    expect(readFileSync(join(dir, 'master.key'), 'utf8')).toBe(KEY_B_HEX + '\n')
  })

  test('without MASTER_KEY, create: true writes DATA_DIR/master.key with mode 0600; a second call reads the same key', () => {
    const dir = newDir()
    const config = loadConfig({ DATA_DIR: dir })
    const path = join(dir, 'master.key')
    expect(config.masterKeyPath).toBe(path)
    const first = loadMasterKey(config, { create: true })
    expect(first).toHaveLength(32)
    expect(first.some((b) => b !== 0)).toBe(true)
    expect(existsSync(path)).toBe(true)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    // The file holds the key in base64 on one line.
    expect(first).toEqual(new Uint8Array(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64')))
    const second = loadMasterKey(config, { create: true })
    expect(second).toEqual(first)
    expect(loadMasterKey(config, { create: false })).toEqual(first)
  })

  test('two data directories get two different keys', () => {
    const a = loadMasterKey(loadConfig({ DATA_DIR: newDir() }), { create: true })
    const b = loadMasterKey(loadConfig({ DATA_DIR: newDir() }), { create: true })
    expect(a).not.toEqual(b)
  })

  test('a hand-written key file (hex, mode 0600) is read', () => {
    const dir = newDir()
    writeFileSync(join(dir, 'master.key'), KEY_A_HEX + '\n', { mode: 0o600 })
    expect(loadMasterKey(loadConfig({ DATA_DIR: dir }), { create: false })).toEqual(KEY_A)
  })

  test('create: false with no file throws MasterKeyError and writes nothing', () => {
    const dir = newDir()
    const error = thrown(() => loadMasterKey(loadConfig({ DATA_DIR: dir }), { create: false }))
    expect(error).toBeInstanceOf(MasterKeyError)
    expect((error as Error).message).toContain('MASTER_KEY')
    expect(existsSync(join(dir, 'master.key'))).toBe(false)
  })

  test.each([0o644, 0o640, 0o604, 0o660, 0o666])('a key file with mode %o is refused with a chmod 600 hint', (mode) => {
    const dir = newDir()
    const path = join(dir, 'master.key')
    writeFileSync(path, KEY_A_HEX + '\n', { mode: 0o600 })
    chmodSync(path, mode)
    const error = thrown(() => loadMasterKey(loadConfig({ DATA_DIR: dir }), { create: true }))
    expect(error).toBeInstanceOf(MasterKeyError)
    expect((error as Error).message).toContain('chmod 600')
    expect((error as Error).message).toContain(path)
    // The refused file is left alone.
    expect(readFileSync(path, 'utf8')).toBe(KEY_A_HEX + '\n')
  })

  test('a key file readable by its owner only (0400) is accepted', () => {
    const dir = newDir()
    const path = join(dir, 'master.key')
    writeFileSync(path, KEY_B_HEX, { mode: 0o600 })
    chmodSync(path, 0o400)
    expect(loadMasterKey(loadConfig({ DATA_DIR: dir }), { create: false })).toEqual(KEY_B)
  })

  test.each([
    ['garbage', 'this is not a key\n'],
    ['an empty file', ''],
    ['too short hex', '0011223344\n'],
    ['16 bytes of base64', Buffer.alloc(16, 7).toString('base64') + '\n'],
    ['65 hex digits', KEY_A_HEX + 'f\n'],
  ])('a key file holding %s is refused', (_, content) => {
    const dir = newDir()
    const path = join(dir, 'master.key')
    writeFileSync(path, content, { mode: 0o600 })
    const error = thrown(() => loadMasterKey(loadConfig({ DATA_DIR: dir }), { create: true }))
    expect(error).toBeInstanceOf(MasterKeyError)
    expect((error as Error).message).toContain(path)
    expect((error as Error).message).toContain('does not hold a master key')
    // Not replaced by a fresh key.
    expect(readFileSync(path, 'utf8')).toBe(content)
  })
})

describe('signing keys at rest', () => {
  test('signing_keys never holds a plaintext private key; the sealed one opens with the master key and its kid', async () => {
    const app = await makeTestApp({ MASTER_KEY: KEY_A_HEX })
    try {
      await (app.context.keys as Keyring).rotate(60)
      const rows = await app.context.db.raw.all<Record<string, unknown>>('SELECT * FROM signing_keys')
      expect(rows).toHaveLength(2)
      for (const row of rows) {
        for (const [column, value] of Object.entries(row)) {
          expect({ column, plaintext: String(value).includes('PRIVATE KEY') }).toEqual({ column, plaintext: false })
          expect({ column, privateJwk: String(value).includes('"d":') }).toEqual({ column, privateJwk: false })
        }
        const publicJwk = JSON.parse(String(row.public_jwk)) as Record<string, unknown>
        expect(Object.keys(publicJwk).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use'])
        const pem = new TextDecoder().decode(unseal(KEY_A, String(row.private_key_encrypted), String(row.kid)))
        expect(pem).toStartWith('-----BEGIN PRIVATE KEY-----')
        expect(() => unseal(KEY_B, String(row.private_key_encrypted), String(row.kid))).toThrow(MasterKeyError)
      }
    } finally {
      await app.close()
    }
  })

  test('without MASTER_KEY, the app creates DATA_DIR/master.key (0600) and seals with it', async () => {
    const dataDir = newDir()
    const app = await makeTestApp({}, { dataDir, keepData: true })
    try {
      const path = join(dataDir, 'master.key')
      expect(statSync(path).mode & 0o777).toBe(0o600)
      const key = new Uint8Array(Buffer.from(readFileSync(path, 'utf8').trim(), 'base64'))
      const row = (await app.context.db.raw.get<{ kid: string; private_key_encrypted: string }>(
        'SELECT kid, private_key_encrypted FROM signing_keys',
      ))!
      expect(new TextDecoder().decode(unseal(key, row.private_key_encrypted, row.kid))).toStartWith('-----BEGIN PRIVATE KEY-----')
    } finally {
      await app.close()
    }
  })

  test('reopening a DATA_DIR with the same MASTER_KEY works', async () => {
    const dataDir = newDir()
    const first = await makeTestApp({ MASTER_KEY: KEY_A_HEX }, { dataDir, keepData: true })
    const { kid } = await first.context.keys.signer(first.clock.now())
    await first.close()
    const second = await makeTestApp({ MASTER_KEY: KEY_A_HEX }, { dataDir, keepData: true })
    try {
      expect((await second.context.keys.signer(second.clock.now())).kid).toBe(kid)
      expect(await second.context.keys.sign(kid, { sub: 'x' })).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    } finally {
      await second.close()
    }
  })

  test('reopening a DATA_DIR with a different MASTER_KEY fails with MasterKeyError', async () => {
    const dataDir = newDir()
    const first = await makeTestApp({ MASTER_KEY: KEY_A_HEX }, { dataDir, keepData: true })
    await first.close()
    const reopened = makeTestApp({ MASTER_KEY: KEY_B_HEX }, { dataDir, keepData: true })
    await expect(reopened).rejects.toBeInstanceOf(MasterKeyError)
    await expect(reopened).rejects.toThrow(WRONG_KEY_MESSAGE)
  })

  test('reopening a DATA_DIR whose keys were sealed with master.key, now with a different MASTER_KEY, fails with MasterKeyError', async () => {
    const dataDir = newDir()
    const first = await makeTestApp({}, { dataDir, keepData: true })
    await first.close()
    expect(existsSync(join(dataDir, 'master.key'))).toBe(true)
    const reopened = makeTestApp({ MASTER_KEY: KEY_B_HEX }, { dataDir, keepData: true })
    await expect(reopened).rejects.toBeInstanceOf(MasterKeyError)
    await expect(reopened).rejects.toThrow(WRONG_KEY_MESSAGE)
  })
})
