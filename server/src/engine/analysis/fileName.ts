// A source's file as a message names it: its name, never the whole path or URI (a diagnostic's related information
// links the file itself).

import type { ObjectSource } from '../model';

/** The last segment of a path or URI, decoded ("file:///repo/web%20app.yaml" → "web app.yaml"; "-" stays "-"). */
export function fileName(file: string): string {
  const uri = /^[a-z][a-z0-9+.-]*:/i.test(file) && !/^[a-z]:[\\/]/i.test(file);
  const path = uri ? file.replace(/[?#].*$/, '') : file;
  const last = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1) || path;
  if (!uri) return last;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** Where a copy is: its file's name, and its document's number when `other` is in the same file. */
export function copyPlace(source: ObjectSource | undefined, other: ObjectSource | undefined): string {
  if (!source) return 'another document';
  const name = fileName(source.file);
  return other && other.file === source.file ? `document ${source.docIndex + 1} of ${name}` : name;
}
