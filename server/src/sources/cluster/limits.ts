// What one request to a cluster may cost at most, so that a broken or hostile server (or anything on the path) can
// neither exhaust memory nor hold a reading forever: bytes per answer and per LIST, a deadline per request, retries of
// "too many requests", and the length of any text the server provides.

export interface ApiLimits {
  /** Bytes of one answer (one HTTP body: a LIST page, a document, a watch line), counted while reading. */
  maxAnswerBytes?: number;
  /** Bytes of one resource's whole LIST, all pages together (a server that never stops paginating). */
  maxListBytes?: number;
  /**
   * Values one answer (a page) may hold: what parsing it allocates. 100 MB of `{},` parse into 33 million objects (2.2 GB
   * of heap), so bytes alone do not bound memory. Counted before parsing (JSON: its `,` `{` `[` bytes, an upper bound
   * of its values; protobuf: four per list item).
   */
  maxAnswerValues?: number;
  /**
   * Total time of one GET (its retries included): LIST pages, discovery documents, reads in full. 0 = none (the idle
   * timeout still applies). Watches are long-lived by design and keep their own idle timeout instead.
   */
  requestTimeoutMs?: number;
  /** Retries of a 429 (or a 5xx) that carries Retry-After, as client-go makes them. */
  maxRetries?: number;
  /** How a wait between retries is made (tests pass one that records instead of sleeping). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/**
 * 512 MB (decimal) stays under V8's longest string (2^29 - 24 characters), which a JSON answer becomes before it is
 * parsed; a LIST page of 500 objects is a few MB even in full, so only a server that ignores `limit` comes near it.
 */
export const DEFAULT_MAX_ANSWER_BYTES = 512_000_000;
/** Above the metadata of a 100,000-Pod namespace with managedFields in JSON (about 600 MB). */
export const DEFAULT_MAX_LIST_BYTES = 2_000_000_000;
/**
 * A page of 500 objects read in full holds some 100,000 values (strings with commas counted); 20 million is 200 times
 * that, and its parse stays around 1.5 GB of heap even when every value is an empty object.
 */
export const DEFAULT_MAX_ANSWER_VALUES = 20_000_000;
/** Longest error body read (a Status is a few KB): a longer one is not parsed, its HTTP status speaks. */
export const MAX_ERROR_BODY_BYTES = 1_000_000;
/** One page or document within a minute, as the idle timeout already asked of the first byte. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** client-go's maxRetries for Retry-After. */
export const DEFAULT_MAX_RETRIES = 10;
/** Without a request deadline, one wait is at most this long (a Retry-After of a day is not honoured). */
export const MAX_RETRY_WAIT_MS = 60_000;
/** Longest server-provided text kept in an error or a note (Status messages, error bodies, names). */
export const MAX_SERVER_TEXT = 500;

export type ResolvedLimits = Required<ApiLimits>;

export function resolveLimits(l: ApiLimits = {}): ResolvedLimits {
  return {
    maxAnswerBytes: l.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    maxListBytes: l.maxListBytes ?? DEFAULT_MAX_LIST_BYTES,
    maxAnswerValues: l.maxAnswerValues ?? DEFAULT_MAX_ANSWER_VALUES,
    requestTimeoutMs: l.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    maxRetries: l.maxRetries ?? DEFAULT_MAX_RETRIES,
    sleep: l.sleep ?? sleep,
  };
}

/** Server-provided text cut to `max` characters (with "…"); never a surrogate pair cut in half. */
export function serverText(v: unknown, max = MAX_SERVER_TEXT): string {
  const s = typeof v === 'string' ? v : String(v);
  if (s.length <= max) return s;
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}

/** "1 MB", "3 KB", "512 MB", "2 GB" (decimal units, as the limits are given). */
export function formatBytes(n: number): string {
  const units: [number, string][] = [
    [1e9, 'GB'],
    [1e6, 'MB'],
    [1e3, 'KB'],
  ];
  for (const [size, unit] of units) if (n >= size) return `${Number((n / size).toFixed(1))} ${unit}`;
  return `${n} bytes`;
}

/** "0.3 s", "60 s". */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;
}

const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * The `,` `{` `[` bytes of a piece of JSON text, counted up to `atMost` + 1: one more than them is an upper bound of the
 * values the text holds (every value but a container's first follows a comma, every container opens with a bracket;
 * those inside strings are counted too).
 */
export function structuralBytes(buf: Uint8Array, atMost: number): number {
  let n = 0;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if ((c === COMMA || c === OPEN_BRACE || c === OPEN_BRACKET) && ++n > atMost) return n;
  }
  return n;
}

/** The bytes a LIST may still read, shared by its pages. */
export interface ListBudget {
  left: number;
  readonly limit: number;
  /** The collection path, for the message. */
  readonly what: string;
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
