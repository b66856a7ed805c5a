// The one rule for what counts as an e-mail address, used by the configuration (ADMIN_EMAIL), the
// command line (`user create --email`) and every API schema with `format: 'email'` (registered as
// that format by src/modules/users/model.ts), so an address one of them accepts is never refused by another.

export const EMAIL_MAX_LENGTH = 254

// Elysia's `email` format, which the API applied before there was one rule (the configuration and the
// command line had a looser copy, so an ADMIN_EMAIL could be one the API refused): an ASCII local part
// of dot-separated atoms, and a domain of at least two labels that neither start nor end with a hyphen.
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i

/** Whether `text` is an e-mail address we accept: the rule above, at most 254 characters. */
export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && EMAIL.test(text)
}
