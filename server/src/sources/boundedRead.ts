// Reading one input file safely: only regular files (a FIFO would block forever, /dev/zero never ends), opened
// without blocking, and never more than the size limit read, whatever the file's size said (it can grow, and
// /proc-like files report 0).

import { closeSync, constants, fstatSync, openSync, promises as fs, readSync, type Stats } from 'node:fs';

export type BoundedRead = { bytes: Buffer } | { refused: 'not-regular'; what: string } | { refused: 'too-large'; size: number | undefined };

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const CHUNK = 1024 * 1024;

/** What a non-regular file is, in words (from its Stats or its folder entry). */
export function describeFileType(st: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isCharacterDevice' | 'isBlockDevice' | 'isSocket'>): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * The bytes of one file as they are read, for the async and the sync reader alike: what to read into next (the whole
 * file and one byte more first, to see it end; a chunk at a time if it grew), and the answer once it ends or passes
 * the limit.
 */
class Reading {
  private readonly chunks: Buffer[] = [];
  private total = 0;
  private buf: Buffer | undefined;

  constructor(
    private readonly st: Stats,
    private readonly limit: number,
  ) {}

  /** The answer without reading, when the file's type or size already decides it. */
  refusal(): BoundedRead | undefined {
    if (!this.st.isFile()) return { refused: 'not-regular', what: describeFileType(this.st) };
    if (this.st.size > this.limit) return { refused: 'too-large', size: this.st.size };
    return undefined;
  }

  next(): Buffer {
    const size = this.total === 0 && this.st.size > 0 ? this.st.size + 1 : CHUNK;
    return (this.buf = Buffer.allocUnsafe(Math.min(size, this.limit + 1 - this.total)));
  }

  /** Takes `n` bytes read into the last buffer; the answer once the file ended or passed the limit. */
  read(n: number): BoundedRead | undefined {
    const buf = this.buf!;
    if (n === 0) return { bytes: this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.total) };
    this.total += n;
    if (this.total > this.limit) return { refused: 'too-large', size: undefined }; // it grew, or never ends
    this.chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    return undefined;
  }
}

/** Reads a regular file of at most `limit` bytes. Errors of the file system are thrown as they are. */
export async function readBounded(file: string, limit: number): Promise<BoundedRead> {
  const fh = await fs.open(file, OPEN_FLAGS);
  try {
    const reading = new Reading(await fh.stat(), limit);
    let answer = reading.refusal();
    while (!answer) {
      const buf = reading.next();
      answer = reading.read((await fh.read(buf, 0, buf.length, null)).bytesRead);
    }
    return answer;
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** The same, synchronously (the language server's reads of single files). */
export function readBoundedSync(file: string, limit: number): BoundedRead {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const reading = new Reading(fstatSync(fd), limit);
    let answer = reading.refusal();
    while (!answer) {
      const buf = reading.next();
      answer = reading.read(readSync(fd, buf, 0, buf.length, null));
    }
    return answer;
  } finally {
    closeSync(fd);
  }
}
