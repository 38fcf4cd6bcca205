// A small JSON scanner for what JSON.parse cannot tell: where a syntax error is (portably, whatever the
// engine's error message looks like) and where given values are. It never recurses deeper than the paths it
// is asked for, so arbitrarily deep input cannot overflow the stack.

import type { ValueKind } from './reader';

/** Which values to locate: keys of objects, indexes of arrays, or every element of an array (`items`). */
export interface Want {
  keys?: Map<string, Want>;
  index?: Map<number, Want>;
  items?: Want;
}

/** A located value. Containers hold only the members that were wanted. */
export interface PNode {
  kind: ValueKind;
  start: number;
  end: number;
  keyStart?: number;
  keyEnd?: number;
  map?: Map<string, PNode>;
  list?: (PNode | undefined)[];
}

class ScanError extends Error {}

const isWs = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

class Scanner {
  i = 0;
  constructor(private readonly t: string) {}

  ws(): void {
    const t = this.t;
    let i = this.i;
    while (i < t.length && isWs(t.charCodeAt(i))) i++;
    this.i = i;
  }

  /** Skips a string; `i` is at its opening quote. */
  skipString(): void {
    const t = this.t;
    let i = this.i + 1;
    for (;;) {
      const j = t.indexOf('"', i);
      if (j < 0) throw new ScanError('unterminated string');
      let b = 0;
      for (let k = j - 1; k >= i && t.charCodeAt(k) === 92; k--) b++;
      i = j + 1;
      if (b % 2 === 0) break;
    }
    this.i = i;
  }

  readKey(): string {
    const start = this.i;
    this.skipString();
    const raw = this.t.slice(start + 1, this.i - 1);
    return raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  /** Skips one value of any size without recursion. */
  skip(): void {
    const t = this.t;
    const c = t.charCodeAt(this.i);
    if (c === 34) return this.skipString();
    if (c === 123 || c === 91) {
      let depth = 0;
      do {
        const d = t.charCodeAt(this.i);
        if (d === 34) {
          this.skipString();
          continue;
        }
        if (d === 123 || d === 91) depth++;
        else if (d === 125 || d === 93) depth--;
        this.i++;
      } while (depth > 0 && this.i < t.length);
      if (depth > 0) throw new ScanError('unterminated container');
      return;
    }
    let i = this.i;
    while (i < t.length) {
      const d = t.charCodeAt(i);
      if (d === 44 || d === 93 || d === 125 || isWs(d)) break;
      i++;
    }
    if (i === this.i) throw new ScanError('expected a value');
    this.i = i;
  }

  scalarKind(start: number): ValueKind {
    const c = this.t.charCodeAt(start);
    if (c === 34) return 'string';
    if (c === 116 || c === 102) return 'boolean';
    if (c === 110) return 'null';
    return 'number';
  }

  value(want: Want | undefined): PNode {
    const t = this.t;
    const start = this.i;
    const c = t.charCodeAt(start);
    if (c === 123 && want?.keys) {
      const map = new Map<string, PNode>();
      this.i++;
      this.ws();
      if (t.charCodeAt(this.i) === 125) {
        this.i++;
        return { kind: 'map', start, end: this.i, map };
      }
      for (;;) {
        this.ws();
        if (t.charCodeAt(this.i) !== 34) throw new ScanError('expected a key');
        const keyStart = this.i;
        const key = this.readKey();
        const keyEnd = this.i;
        this.ws();
        if (t.charCodeAt(this.i) !== 58) throw new ScanError('expected a colon');
        this.i++;
        this.ws();
        const childWant = want.keys.get(key);
        if (childWant) {
          const child = this.value(childWant);
          child.keyStart = keyStart;
          child.keyEnd = keyEnd;
          map.delete(key);
          map.set(key, child);
        } else {
          this.skip();
        }
        this.ws();
        const d = t.charCodeAt(this.i);
        this.i++;
        if (d === 44) continue;
        if (d === 125) break;
        throw new ScanError('expected , or }');
      }
      return { kind: 'map', start, end: this.i, map };
    }
    if (c === 91 && want && (want.index || want.items)) {
      const list: (PNode | undefined)[] = [];
      this.i++;
      this.ws();
      if (t.charCodeAt(this.i) === 93) {
        this.i++;
        return { kind: 'seq', start, end: this.i, list };
      }
      for (let idx = 0; ; idx++) {
        this.ws();
        const childWant = want.index?.get(idx) ?? want.items;
        if (childWant) list[idx] = this.value(childWant);
        else this.skip();
        this.ws();
        const d = t.charCodeAt(this.i);
        this.i++;
        if (d === 44) continue;
        if (d === 93) break;
        throw new ScanError('expected , or ]');
      }
      return { kind: 'seq', start, end: this.i, list };
    }
    this.skip();
    const kind: ValueKind = c === 123 ? 'map' : c === 91 ? 'seq' : this.scalarKind(start);
    return { kind, start, end: this.i };
  }
}

/** Locates the wanted values of a JSON text. Returns undefined if the text is not JSON. */
export function scanJson(text: string, want: Want): PNode | undefined {
  const s = new Scanner(text);
  try {
    if (text.charCodeAt(0) === 0xfeff) s.i = 1;
    s.ws();
    return s.value(want);
  } catch (e) {
    if (e instanceof ScanError || e instanceof SyntaxError) return undefined;
    throw e;
  }
}

/** Adds a path to a Want tree (numbers are array indexes, '*' every element of an array). */
export function addWant(root: Want, path: readonly (string | number)[]): Want {
  let w = root;
  for (const p of path) {
    if (typeof p === 'number') {
      w.index ??= new Map();
      let next = w.index.get(p);
      if (!next) w.index.set(p, (next = {}));
      w = next;
    } else if (p === '*') {
      w = w.items ??= {};
    } else {
      w.keys ??= new Map();
      let next = w.keys.get(p);
      if (!next) w.keys.set(p, (next = {}));
      w = next;
    }
  }
  return w;
}

/** Follows a path through located values. */
export function pnodeAt(root: PNode | undefined, path: readonly (string | number)[]): PNode | undefined {
  let n = root;
  for (const p of path) {
    if (!n) return undefined;
    n = typeof p === 'number' ? n.list?.[p] : n.map?.get(p);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------
// Syntax errors

const describeChar = (t: string, i: number) => (i >= t.length ? 'the end of the file' : JSON.stringify(t[i]));

/** The offset and a one-sentence description of the first JSON syntax error, or undefined for valid JSON. */
export function locateJsonError(t: string): { offset: number; message: string } | undefined {
  const n = t.length;
  let i = t.charCodeAt(0) === 0xfeff ? 1 : 0;
  const stack: number[] = []; // 0 = object, 1 = array
  type State = 'value' | 'valueOrEnd' | 'keyOrEnd' | 'key' | 'colon' | 'after';
  let state: State = 'value';
  const fail = (offset: number, message: string) => ({ offset, message });

  const string = (): { offset: number; message: string } | undefined => {
    const start = i;
    i++;
    for (;;) {
      if (i >= n) return fail(start, 'a string is not terminated');
      const c = t.charCodeAt(i);
      if (c === 34) {
        i++;
        return undefined;
      }
      if (c === 92) {
        const e = t[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(t.slice(i + 2, i + 6))) return fail(i, 'a \\u escape needs four hexadecimal digits');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          return fail(i, `${JSON.stringify('\\' + (e ?? ''))} is not a valid escape in a JSON string`);
        }
        continue;
      }
      if (c < 0x20) return fail(i, 'a string contains a raw control character (a newline or tab inside a string must be escaped)');
      i++;
    }
  };

  const number = (): { offset: number; message: string } | undefined => {
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = i;
    const r = m.exec(t);
    if (!r || r[0] === '-' || r[0] === '') return fail(i, `expected a value, found ${describeChar(t, i)}`);
    const next = t[i + r[0].length];
    if (next !== undefined && /[0-9.eE+\-A-Za-z]/.test(next))
      return fail(i, `the number ${JSON.stringify(t.slice(i, i + r[0].length + 1))} is not valid JSON`);
    i += r[0].length;
    return undefined;
  };

  for (;;) {
    while (i < n && isWs(t.charCodeAt(i))) i++;
    if (i >= n) {
      if (stack.length === 0 && state === 'after') return undefined;
      return fail(
        n,
        stack.length ? `the file ends before the ${stack[stack.length - 1] === 0 ? 'object' : 'array'} is closed` : 'the file is empty',
      );
    }
    const c = t[i];
    switch (state) {
      case 'value':
      case 'valueOrEnd': {
        if (state === 'valueOrEnd' && c === ']') {
          stack.pop();
          i++;
          state = 'after';
          break;
        }
        let err: { offset: number; message: string } | undefined;
        if (c === '{') {
          stack.push(0);
          i++;
          state = 'keyOrEnd';
          break;
        } else if (c === '[') {
          stack.push(1);
          i++;
          state = 'valueOrEnd';
          break;
        } else if (c === '"') {
          err = string();
        } else if (c === '-' || (c >= '0' && c <= '9')) {
          err = number();
        } else if (t.startsWith('true', i) || t.startsWith('null', i)) {
          i += 4;
        } else if (t.startsWith('false', i)) {
          i += 5;
        } else {
          return fail(i, `expected a value, found ${describeChar(t, i)}`);
        }
        if (err) return err;
        state = 'after';
        break;
      }
      case 'keyOrEnd':
      case 'key': {
        if (state === 'keyOrEnd' && c === '}') {
          stack.pop();
          i++;
          state = 'after';
          break;
        }
        if (c !== '"') return fail(i, `expected a property name in double quotes, found ${describeChar(t, i)}`);
        const err = string();
        if (err) return err;
        state = 'colon';
        break;
      }
      case 'colon':
        if (c !== ':') return fail(i, `expected ':' after a property name, found ${describeChar(t, i)}`);
        i++;
        state = 'value';
        break;
      case 'after': {
        if (stack.length === 0) return fail(i, `unexpected ${describeChar(t, i)} after the end of the JSON value`);
        const top = stack[stack.length - 1];
        if (c === ',') {
          i++;
          state = top === 0 ? 'key' : 'value';
        } else if ((c === '}' && top === 0) || (c === ']' && top === 1)) {
          stack.pop();
          i++;
        } else {
          return fail(i, `expected ',' or '${top === 0 ? '}' : ']'}', found ${describeChar(t, i)}`);
        }
        break;
      }
    }
  }
}
