// Response schema of the roles endpoint.
import { t } from 'elysia'

export const RolesBody = t.Object({
  roles: t.Array(t.Object({ name: t.String(), permissions: t.Array(t.String()) }), { description: 'Most privileged first' }),
})
