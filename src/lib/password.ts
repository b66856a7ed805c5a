// Passwords: argon2id through Bun.password, always async (the sync form blocks the event loop ~100 ms).
// OWASP's argon2id floor (19 MiB, t=2): ~28 ms a verify on 2 vCPUs instead of ~113 ms at Bun's default.

const PARAMS = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const

export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 256

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, PARAMS)
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return Bun.password.verify(password, hash)
}

let dummy: Promise<string> | undefined

/** A hash to verify against when the e-mail is unknown, so that answer takes as long as a wrong password. */
export function dummyHash(): Promise<string> {
  return (dummy ??= hashPassword(crypto.randomUUID()))
}

/** A password for the first Super Admin when none is configured: 20 characters, ~119 bits. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'
  const bytes = crypto.getRandomValues(new Uint8Array(20))
  // 256 % 57 leaves a bias under 1%; a retry loop would buy nothing for a one-time password.
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')
}
