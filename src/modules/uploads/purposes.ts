// Which content types each purpose takes, checked on the sniffed type (never the client's): recordings
// are audio, avatars the four image types every browser shows, imports text (CSV), attachments almost
// anything but programs, installers and macro-carrying Office files. Refused: 415 UNSUPPORTED_MEDIA_TYPE
// naming the purpose and the type found, nothing stored.
import { AppError } from '../../errors.ts'
import type { UploadPurpose } from './lifecycle.ts'

const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp']
const IMPORT_TYPES = ['text/csv', 'text/plain']

/** What an attachment must not be: something a click would run. */
const PROGRAM_TYPES = new Set([
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-msdownload',
  'application/wasm',
  'application/java-vm',
  'application/java-archive',
  'application/x-ms-shortcut',
  'application/x-ms-regedit',
  'application/vnd.ms-htmlhelp',
  'application/vnd.android.package-archive',
  'application/x-apple-diskimage',
  'application/x-deb',
  'application/x-rpm',
  'application/x-xpinstall',
  'application/x-google-chrome-extension',
  'application/x-shockwave-flash',
])

/** The rule of each purpose, in words (README, OpenAPI, refusals). */
export const PURPOSE_RULES: Record<UploadPurpose, string> = {
  attachment:
    'anything but programs and installers (ELF, PE/.exe, Mach-O, WebAssembly, Java, APK, DMG, DEB, RPM, browser extensions, Flash, macro-enabled Office files; an MSI installer passes, as its format is that of legacy .doc/.xls files)',
  recording: 'audio (audio/*: WAV, MP3, OGG/Opus, FLAC, AAC, M4A, ...)',
  import: 'UTF-8 text (text/csv when the name ends in .csv, else text/plain)',
  avatar: 'PNG, JPEG, GIF or WebP images',
}

export function purposeAccepts(purpose: UploadPurpose, contentType: string): boolean {
  switch (purpose) {
    case 'recording':
      return contentType.startsWith('audio/')
    case 'avatar':
      return AVATAR_TYPES.includes(contentType)
    case 'import':
      return IMPORT_TYPES.includes(contentType)
    case 'attachment':
      return !PROGRAM_TYPES.has(contentType) && !contentType.includes('macroenabled')
  }
}

export function assertPurposeAccepts(purpose: UploadPurpose, contentType: string): void {
  if (!purposeAccepts(purpose, contentType))
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `The file is ${contentType} (read from its bytes), which a ${purpose} upload does not take: it takes ${PURPOSE_RULES[purpose]}`,
    )
}
