// The Reports screen (its parts are in reports/).
export { Reports } from './reports/screen.tsx'
