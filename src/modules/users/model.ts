// Request and response schemas of the users endpoints.
import { FormatRegistry } from '@sinclair/typebox'
import { t } from 'elysia'
import { isEmailAddress } from '../../lib/email.ts'
import { listResponse, pagingQuery } from '../../http/list.ts'
import { oneOf } from '../../http/schema.ts'
import { ROLES } from '../access/index.ts'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../lib/password.ts'
import { USER_LIST } from './store.ts'
import { USER_STATUSES } from './table.ts'

// Every `format: 'email'` of the API (users, ticket requesters) checks the one e-mail rule of src/lib,
// the same as ADMIN_EMAIL and `user create`. Elysia registers its own copy of it at import; this replaces it.
FormatRegistry.Set('email', (value) => isEmailAddress(value))

export const RoleName = oneOf(ROLES, { description: 'super_admin, admin, supervisor, agent or viewer' })
export const UserStatusName = oneOf(USER_STATUSES)
// At least one character that is not white space (names are stored trimmed).
const Name = t.String({ minLength: 1, maxLength: 200, pattern: '\\S' })

// The User component's example (also in the user.* webhook examples and test sends).
export const USER_EXAMPLE = {
  id: 'usr_01KAX3M6W9P8T2V5G7H4J3C1QZ',
  organization_id: 'org_01KAX3M6W9P8T2V5G7H4J3C1QA',
  email: 'ada@example.com',
  name: 'Ada Agent',
  role: 'agent',
  status: 'active',
  created_at: '2026-01-15T09:30:00.000Z',
  updated_at: '2026-01-15T09:30:00.000Z',
}

export const UserBody = t.Object(
  {
    id: t.String({ examples: ['usr_01KAX3M6W9P8T2V5G7H4J3C1QZ'] }),
    organization_id: t.String(),
    email: t.String(),
    name: t.String(),
    role: RoleName,
    status: UserStatusName,
    created_at: t.String({ format: 'date-time' }),
    updated_at: t.String({ format: 'date-time' }),
  },
  { title: 'User', examples: [USER_EXAMPLE] },
)

export const MeBody = t.Object({
  ...UserBody.properties,
  permissions: t.Array(t.String(), {
    description: 'What this credential may do: the grants of the current role, narrowed for a personal access token',
  }),
})

export const CreateUserBody = t.Object(
  {
    email: t.String({ format: 'email', maxLength: 254 }),
    name: Name,
    password: t.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
    role: RoleName,
  },
  { examples: [{ email: 'ada@example.com', name: 'Ada Agent', password: 'correct horse battery staple', role: 'agent' }] },
)

export const UpdateUserBody = t.Object(
  { name: t.Optional(Name), role: t.Optional(RoleName), status: t.Optional(UserStatusName) },
  { minProperties: 1, examples: [{ role: 'supervisor' }] },
)

export const UserIdParams = t.Object({ id: t.String({ maxLength: 64 }) })

export const UserListItem = t.Object({
  id: t.String(),
  name: t.String(),
  email: t.String(),
  role: RoleName,
  status: UserStatusName,
  created_at: t.String({ format: 'date-time' }),
  updated_at: t.String({ format: 'date-time' }),
})

export const UserListQuery = t.Object({
  role: t.Optional(RoleName),
  status: t.Optional(UserStatusName),
  q: t.Optional(t.String({ minLength: 1, maxLength: 200, description: 'Prefix of the name or the e-mail, without regard to case' })),
  ...pagingQuery(USER_LIST.sorts),
})

export const UserList = listResponse('users', UserListItem)
