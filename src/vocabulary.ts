// The language of who may do what: the `resource:action` vocabulary and the five roles. Below context.ts
// (an actor holds a role and grants) and the access module (which decides what each role grants).

/** Every resource of the spec and the actions on it. */
export const VOCABULARY = {
  ticket: ['read', 'create', 'update', 'delete', 'assign', 'comment'],
  call: ['read', 'create', 'update', 'delete'],
  recording: ['read', 'create', 'delete'],
  agent: ['read', 'create', 'update', 'delete'],
  user: ['read', 'create', 'update', 'delete'],
  role: ['read', 'assign'],
  // Subscriptions, invoices and payments: reading them, and changing the subscription and paying.
  billing: ['read', 'manage'],
  account: ['read', 'create', 'update', 'delete'],
  contact: ['read', 'create', 'update', 'delete'],
  lead: ['read', 'create', 'update', 'delete', 'convert'],
  engagement: ['read', 'create', 'update', 'close', 'escalate'],
  // The messages of engagement sessions.
  message: ['read', 'create'],
  survey: ['read', 'create', 'update', 'delete'],
  webhook: ['read', 'create', 'update', 'delete'],
  upload: ['read', 'create', 'delete'],
  report: ['read'],
  audit: ['read'],
  api_key: ['read', 'create', 'delete'],
  oauth_client: ['read', 'create', 'update', 'delete'],
  organization: ['read', 'update'],
  // Other users' sessions; everyone may list and end their own.
  session: ['read', 'delete'],
} as const

export type Resource = keyof typeof VOCABULARY
export type Permission = { [R in Resource]: `${R}:${(typeof VOCABULARY)[R][number]}` }[Resource]
/** What a role may hold: a permission, `resource:*` or `*:*`. */
export type Grant = Permission | `${Resource}:*` | '*:*'

export const ALL_PERMISSIONS: readonly Permission[] = (Object.keys(VOCABULARY) as Resource[]).flatMap((r) =>
  VOCABULARY[r].map((a) => `${r}:${a}` as Permission),
)

export const ROLES = ['super_admin', 'admin', 'supervisor', 'agent', 'viewer'] as const
export type Role = (typeof ROLES)[number]

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value)
}
