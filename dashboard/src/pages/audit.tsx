// The Audit log screen's entry (screens.ts imports it); the screen itself lives in pages/audit/.
export { Audit } from './audit/index.tsx'
