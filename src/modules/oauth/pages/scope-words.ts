// What each scope lets an application do, in words a user reads on the consent page.

const WORDS: Readonly<Record<string, string>> = {
  openid: 'Confirm your identity',
  profile: 'See your name',
  email: 'See your e-mail address',
  offline_access: 'Stay connected when you are away',
  'tickets:read': 'Read tickets',
  'tickets:write': 'Create, update and comment on tickets',
  'users:read': "See your organization's users",
}

/** The sentence of a scope; a scope without one (added later) is shown as it is named. */
export function scopeInWords(scope: string): string {
  return WORDS[scope] ?? scope
}
