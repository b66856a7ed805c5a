// A stand-in for `oathtool --totp -b SECRET` (Debian package oathtool) that the documentation's examples
// call as a reader's authenticator app: prints the current 6-digit TOTP code of a base32 secret, computed
// by test/helpers/totp.ts (from the RFCs, independent of the server's own TOTP code).
import { totpAt } from './totp.ts'

const args = process.argv.slice(2)
const secret = args.at(-1)
if (!args.includes('--totp') || !(args.includes('-b') || args.includes('--base32')) || secret === undefined) {
  process.stderr.write('usage: oathtool --totp -b BASE32_SECRET\n')
  process.exit(2)
}
console.log(totpAt(secret, Date.now()))
