// Access tokens already verified (signature, issuer, audience, nbf), kept until they expire so a
// request with a known token skips the RSA check (~150 µs). Revocation and the user's state are still
// checked on every request by authenticate(); only what cannot change is cached.
import type { VerifiedClaims, VerifiedTokenCache } from '../../ports.ts'

export type { VerifiedClaims }

export class VerifiedTokens implements VerifiedTokenCache {
  private readonly tokens = new Map<string, VerifiedClaims>()

  constructor(private readonly capacity = 10_000) {}

  /** The claims of a token verified before, unless it has expired since (then it is forgotten). */
  get(token: string, nowS: number): VerifiedClaims | 'expired' | undefined {
    const claims = this.tokens.get(token)
    if (claims === undefined) return undefined
    if (claims.exp <= nowS) {
      this.tokens.delete(token)
      return 'expired'
    }
    return claims
  }

  remember(token: string, claims: VerifiedClaims): void {
    // Bounded: the oldest entry goes first (a Map iterates in insertion order).
    if (this.tokens.size >= this.capacity) this.tokens.delete(this.tokens.keys().next().value!)
    this.tokens.set(token, claims)
  }

  get size(): number {
    return this.tokens.size
  }
}
