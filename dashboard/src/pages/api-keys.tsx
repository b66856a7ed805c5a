// Settings > API keys: the screen lives in ./api-keys/.
export { ApiKeys } from './api-keys/index.tsx'
