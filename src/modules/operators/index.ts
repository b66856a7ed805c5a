// The operators module's public entry: the operator's API tokens (made, listed and revoked from the
// CLI) and the check behind the `operator: true` route macro. Operator routes live in the modules whose
// data they change (billing's plans, subscriptions, invoices and payments).
export {
  authenticateOperator,
  createOperatorToken,
  listOperatorTokens,
  missingOperatorToken,
  OPERATOR_TOKEN_PREFIX,
  type OperatorTokenView,
  revokeOperatorToken,
} from './tokens.ts'
