// Users and roles: the screen lives in ./users/.
export { Users } from './users/index.tsx'
