// YAML positions read when they are asked for, not when the file is loaded (the CLI's loader: a check of 200,000
// documents needs the positions of the objects its findings name, and kept for every object they were most of its
// memory). An object's source knows its document's span and which reader took it, and reads it again each time its
// `ranges` are read: the fast reader's nodes only (no objects extracted again), or the `yaml` path as the first time.
// Either way the positions are exactly the eager ones. Only the last document read is kept, so that the objects of
// one List document do not read it once each.

import type { FieldRanges, KubeObject, ObjectSource } from '../../engine/model';
import type { LineIndex } from './lineIndex';
import { buildRanges } from './ranges';
import { FastReader, fastYamlDocument, type FastNode } from './yamlFast';

/** Reads [start, end) of the text again as parseManifestText does, numbering its documents from `firstDocIndex`. */
export type ReadSpan = (start: number, end: number, firstDocIndex: number) => KubeObject[];

/** Where an object's document is, and whether the fast reader (yamlFast.ts) read it. */
export interface DocumentSpan {
  start: number;
  end: number;
  firstDocIndex: number;
  fast: boolean;
}

type RangesOf = (docIndex: number, itemPath: readonly number[]) => FieldRanges | undefined;

const keyOf = (docIndex: number, itemPath: readonly number[]) => `${docIndex}:${itemPath.join('.')}`;

/** The positions of one YAML text's documents, read again on demand. */
export class LazyPositions {
  private last: { start: number; rangesOf: RangesOf } | undefined;
  private readonly reader: FastReader;

  constructor(
    private readonly text: string,
    readonly file: string,
    private readonly lines: LineIndex,
    private readonly readAgain: ReadSpan,
  ) {
    this.reader = new FastReader(text);
  }

  /** The source of an object of the document at `span`. */
  source(docIndex: number, itemPath: number[], span: DocumentSpan): ObjectSource {
    return new LazySource(this.file, docIndex, itemPath, this, span);
  }

  rangesOf(span: DocumentSpan, docIndex: number, itemPath: readonly number[]): FieldRanges | undefined {
    try {
      if (this.last?.start !== span.start) this.last = { start: span.start, rangesOf: span.fast ? this.fast(span) : this.full(span) };
      return this.last.rangesOf(docIndex, itemPath);
    } catch {
      return undefined; // positions are a convenience: unknown rather than a failure
    }
  }

  /** The fast reader's nodes: an object's node is found by its itemPath, as the extractor walked to it. */
  private fast(span: DocumentSpan): RangesOf {
    const root = fastYamlDocument(this.text, span.start, span.end);
    const r = this.reader;
    return (_docIndex, itemPath) => {
      let n: FastNode | undefined = root;
      for (const i of itemPath) n = n === undefined ? undefined : r.items(n.t === 'q' ? n : (r.get(n, 'items') ?? n))[i];
      return n === undefined ? undefined : buildRanges(r, n, this.lines);
    };
  }

  /** The `yaml` path: the document read again whole, its objects' ranges kept. */
  private full(span: DocumentSpan): RangesOf {
    const ranges = new Map<string, FieldRanges>();
    for (const o of this.readAgain(span.start, span.end, span.firstDocIndex)) {
      if (o.source?.ranges) ranges.set(keyOf(o.source.docIndex, o.source.itemPath), o.source.ranges);
    }
    return (docIndex, itemPath) => ranges.get(keyOf(docIndex, itemPath));
  }
}

/**
 * An ObjectSource whose `ranges` are read from its document each time they are asked for (a few microseconds for a
 * small document), unless set. The span is private: the source prints, compares and copies as a plain one.
 */
class LazySource implements ObjectSource {
  readonly #positions: LazyPositions;
  readonly #span: DocumentSpan;
  #ranges: FieldRanges | undefined;

  constructor(
    public file: string,
    public docIndex: number,
    public itemPath: number[],
    positions: LazyPositions,
    span: DocumentSpan,
  ) {
    this.#positions = positions;
    this.#span = span;
  }

  get ranges(): FieldRanges | undefined {
    return this.#ranges ?? this.#positions.rangesOf(this.#span, this.docIndex, this.itemPath);
  }

  set ranges(r: FieldRanges | undefined) {
    this.#ranges = r;
  }
}

/** Whether an object's positions are still to be found by resolveRanges (JSON), rather than known or read on demand. */
export function positionsPending(source: ObjectSource | undefined): boolean {
  return source !== undefined && !(source instanceof LazySource) && source.ranges === undefined;
}
