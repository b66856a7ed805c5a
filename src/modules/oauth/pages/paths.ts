// Where the authorization server's pages post their forms (all under /oauth2/auth, so one CSP source covers them).
export const PATHS = {
  authorize: '/oauth2/auth',
  signIn: '/oauth2/auth/sign-in',
  mfa: '/oauth2/auth/mfa',
  mfaSms: '/oauth2/auth/mfa/sms',
  consent: '/oauth2/auth/consent',
  logout: '/oauth2/logout',
} as const
