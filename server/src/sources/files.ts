// The only place that touches the file system for manifests: files, folders (recursive) and stdin in,
// KubeObjects and located problems out. Folders contribute .yaml, .yml, .json and .dot files in a sorted,
// deterministic order; a file named explicitly is read whatever its extension.

import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { KubeObject } from '../engine/model';
import { makeProblem, type LoadProblem } from './manifests/loadProblem';
import { parseManifestText } from './manifests/parseManifest';
import { dotToObjects, parseGcDot } from './gcDot/parseGcDot';
import { describeFileType, readBounded } from './boundedRead';

export interface LoadedFiles {
  objects: KubeObject[];
  problems: LoadProblem[];
  /** file → text, for resolveRanges later (manifests and DOT files alike). */
  texts: Map<string, string>;
  /** Files that were read (including ones whose content had problems). */
  files: number;
}

export const MAX_FILE_BYTES = 256 * 1024 * 1024;
const MANIFEST_EXT = /\.(ya?ml|json|dot)$/i;
/** Files read ahead of the one being parsed. */
const READ_AHEAD = 8;

type Entry = { kind: 'file'; name: string } | { kind: 'stdin' } | { kind: 'problem'; problem: LoadProblem };

const byteCompare = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
};

function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    default:
      return e instanceof Error ? e.message : String(e);
  }
}

const unreadable = (file: string, e: unknown) => makeProblem(file, 'error', 'unreadable', `Cannot read ${file}: ${describeFsError(e)}.`);

/** Expands the given paths into the files to read, in order, without following a symlink loop twice. */
async function listInputs(paths: string[]): Promise<Entry[]> {
  const out: Entry[] = [];
  const seenDirs = new Set<string>();
  const seenFiles = new Set<string>();
  const identity = (st: { dev: number; ino: number }, p: string) => (st.ino ? `${st.dev}:${st.ino}` : path.resolve(p));

  const addFile = (file: string, id: string) => {
    if (seenFiles.has(id)) return;
    seenFiles.add(id);
    out.push({ kind: 'file', name: file });
  };

  const walk = async (dir: string, id: string): Promise<void> => {
    if (seenDirs.has(id)) return; // a symlink loop, or the same folder twice
    seenDirs.add(id);
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (e) {
      out.push({ kind: 'problem', problem: unreadable(dir, e) });
      return;
    }
    entries.sort((a, b) => byteCompare(a.name, b.name));
    for (const d of entries) {
      const full = path.join(dir, d.name);
      if (d.isFile()) {
        if (MANIFEST_EXT.test(d.name)) addFile(full, path.resolve(full));
        continue;
      }
      if (!d.isDirectory() && !d.isSymbolicLink()) {
        if (MANIFEST_EXT.test(d.name)) out.push({ kind: 'problem', problem: notRegular(full, describeFileType(d)) });
        continue;
      }
      let st;
      try {
        st = await fs.stat(full);
      } catch (e) {
        // A dangling symlink: only worth a word if it looked like a manifest.
        if (MANIFEST_EXT.test(d.name)) out.push({ kind: 'problem', problem: unreadable(full, e) });
        continue;
      }
      if (st.isDirectory()) {
        if (!d.name.startsWith('.')) await walk(full, identity(st, full));
      } else if (MANIFEST_EXT.test(d.name)) {
        if (st.isFile()) addFile(full, identity(st, full));
        else out.push({ kind: 'problem', problem: notRegular(full, describeFileType(st)) });
      }
    }
  };

  for (const p of paths) {
    if (p === '-') {
      out.push({ kind: 'stdin' });
      continue;
    }
    let st;
    try {
      st = await fs.stat(p);
    } catch (e) {
      out.push({ kind: 'problem', problem: unreadable(p, e) });
      continue;
    }
    if (st.isDirectory()) await walk(p, identity(st, p));
    else addFile(p, path.resolve(p));
  }
  return out;
}

/** Text of a file's bytes: UTF-8 (BOM dropped, as editors do) or UTF-16 with a BOM. */
export function decodeText(buf: Buffer): string {
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString('utf16le');
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) {
    const swapped = Buffer.from(buf.subarray(2, 2 + ((buf.length - 2) & ~1)));
    return swapped.swap16().toString('utf16le');
  }
  const start = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  return buf.toString('utf8', start);
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += b.length;
    if (total > MAX_FILE_BYTES) throw Object.assign(new Error('too large'), { code: 'TOO_LARGE' });
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** Reads one file, or says why not. */
async function readFile(file: string): Promise<Buffer | LoadProblem> {
  try {
    const res = await readBounded(file, MAX_FILE_BYTES);
    if ('bytes' in res) return res.bytes;
    if (res.refused === 'not-regular') return notRegular(file, res.what);
    return tooLarge(file, res.size);
  } catch (e) {
    return unreadable(file, e);
  }
}

const notRegular = (file: string, what: string) =>
  makeProblem(
    file,
    'error',
    'unreadable',
    `Cannot read ${file}: it is ${what}, and only regular files are read (give - to read standard input).`,
  );

/** `size` is the file's size when it was known before reading, undefined when the file grew past the limit. */
const tooLarge = (file: string, size: number | undefined) =>
  makeProblem(
    file,
    'error',
    'too-large',
    `${file} is larger than the ${MAX_FILE_BYTES / 1024 / 1024} MB limit${size === undefined ? '' : ` (${(size / 1024 / 1024).toFixed(0)} MB)`}, so it was not read.`,
  );

function isDotText(text: string): boolean {
  return /^\s*(?:(?:\/\/[^\n]*|\/\*[\s\S]*?\*\/|#[^\n]*)\s*)*(?:strict\s+)?(?:di)?graph\b/i.test(text.slice(0, 4096));
}

function loadText(text: string, file: string, isDot: boolean, out: LoadedFiles): void {
  out.texts.set(file, text);
  out.files++;
  if (isDot) {
    const parsed = parseGcDot(text, file);
    out.problems.push(...parsed.problems);
    for (const o of dotToObjects(parsed.snapshot, file, parsed.ranges)) out.objects.push(o);
    return;
  }
  // Positions are found for what is shown (findings, listed objects), not for every object loaded.
  const parsed = parseManifestText(text, file, { lazyPositions: true });
  for (const o of parsed.objects) out.objects.push(o);
  out.problems.push(...parsed.problems);
}

export async function loadPaths(paths: string[], opts: { stdin?: NodeJS.ReadableStream } = {}): Promise<LoadedFiles> {
  const out: LoadedFiles = { objects: [], problems: [], texts: new Map(), files: 0 };
  const entries = await listInputs(paths);
  const reads = new Map<number, Promise<Buffer | LoadProblem>>();
  const startRead = (i: number) => {
    const e = entries[i];
    if (e && e.kind === 'file' && !reads.has(i)) reads.set(i, readFile(e.name));
  };
  for (let i = 0; i < entries.length; i++) {
    for (let j = i; j < Math.min(entries.length, i + READ_AHEAD); j++) startRead(j);
    const e = entries[i];
    if (e.kind === 'problem') {
      out.problems.push(e.problem);
      continue;
    }
    if (e.kind === 'stdin') {
      let buf: Buffer;
      try {
        buf = await readStream(opts.stdin ?? process.stdin);
      } catch (err) {
        out.problems.push(
          (err as { code?: string }).code === 'TOO_LARGE'
            ? makeProblem(
                '-',
                'error',
                'too-large',
                `Standard input is more than the ${MAX_FILE_BYTES / 1024 / 1024} MB limit, so it was not read.`,
              )
            : makeProblem('-', 'error', 'unreadable', `Cannot read standard input: ${describeFsError(err)}.`),
        );
        continue;
      }
      const text = decodeText(buf);
      loadText(text, '-', isDotText(text), out);
      continue;
    }
    const res = await reads.get(i)!;
    reads.delete(i);
    if (!Buffer.isBuffer(res)) {
      out.problems.push(res);
      continue;
    }
    const text = decodeText(res);
    loadText(text, e.name, /\.dot$/i.test(e.name) || (!MANIFEST_EXT.test(e.name) && isDotText(text)), out);
  }
  return out;
}
