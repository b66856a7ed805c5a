// The Live screen (its parts are in live/).
export { Live } from './live/screen.tsx'
