// How long a recording is, read from its audio with music-metadata (WAV, MP3, OGG/Opus, FLAC, AAC, M4A,
// ...): from the headers first (WAV, an MP3's Xing/VBRI frame or its constant bit rate and size), and only
// when they do not tell, by reading the whole stream (duration: true). The stream is cancelled once the
// answer is known: a 25 MB file on S3 is not downloaded for a header.
import { parseWebStream } from 'music-metadata'

/** The audio could not be read: the recording fails with this reason. */
export class UnreadableAudio extends Error {
  override name = 'UnreadableAudio'
}

export async function audioDurationMs(
  open: () => Promise<ReadableStream<Uint8Array>>,
  file: { contentType: string; sizeBytes: number },
): Promise<number> {
  const fromHeaders = await durationOf(await open(), file, false)
  const seconds = fromHeaders ?? (await durationOf(await open(), file, true))
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0)
    throw new UnreadableAudio(`No duration could be read from the audio (${file.contentType})`)
  return Math.round(seconds * 1000)
}

async function durationOf(
  stream: ReadableStream<Uint8Array>,
  file: { contentType: string; sizeBytes: number },
  whole: boolean,
): Promise<number | undefined> {
  try {
    const { format } = await parseWebStream(
      stream,
      { mimeType: file.contentType, size: file.sizeBytes },
      { duration: whole, skipCovers: true, skipPostHeaders: true },
    )
    return format.duration
  } catch (error) {
    throw new UnreadableAudio(`The audio could not be read: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300))
  } finally {
    await stream.cancel().catch(() => undefined)
  }
}
