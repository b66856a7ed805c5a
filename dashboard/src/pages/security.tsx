// The Security screen's entry (screens.ts imports it); the screen itself lives in pages/security/.
export { MfaEnrollmentRequired, needsMfaEnrollment } from './security/enrollment-required.tsx'
export { Security } from './security/index.tsx'
