// Reading one input file safely: only regular files (a FIFO would block forever, /dev/zero never ends), opened
// without blocking, and never more than the size limit read, whatever the file's size said (it can grow, and
// /proc-like files report 0).

import { closeSync, constants, fstatSync, openSync, promises as fs, readSync, type Stats } from 'node:fs';

export type BoundedRead = { bytes: Buffer } | { refused: 'not-regular'; what: string } | { refused: 'too-large'; size: number | undefined };

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const CHUNK = 1024 * 1024;

/** The first read asks for the whole file and one byte more (to see it end); later ones, if it grew, a chunk each. */
const nextSize = (size: number, total: number, limit: number) => Math.min(total === 0 && size > 0 ? size + 1 : CHUNK, limit + 1 - total);

/** What a non-regular file is, in words. */
export function describeFileType(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Reads a regular file of at most `limit` bytes. Errors of the file system are thrown as they are. */
export async function readBounded(file: string, limit: number): Promise<BoundedRead> {
  const fh = await fs.open(file, OPEN_FLAGS);
  try {
    const st = await fh.stat();
    if (!st.isFile()) return { refused: 'not-regular', what: describeFileType(st) };
    if (st.size > limit) return { refused: 'too-large', size: st.size };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(nextSize(st.size, total, limit));
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > limit) return { refused: 'too-large', size: undefined }; // it grew, or never ends
      chunks.push(bytesRead === buf.length ? buf : buf.subarray(0, bytesRead));
    }
    return { bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total) };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** The same, synchronously (the language server's reads of single files). */
export function readBoundedSync(file: string, limit: number): BoundedRead {
  const fd = openSync(file, OPEN_FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { refused: 'not-regular', what: describeFileType(st) };
    if (st.size > limit) return { refused: 'too-large', size: st.size };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(nextSize(st.size, total, limit));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > limit) return { refused: 'too-large', size: undefined }; // it grew, or never ends
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    }
    return { bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total) };
  } finally {
    closeSync(fd);
  }
}
