// YAML positions read when they are asked for, not when the file is loaded (the CLI's loader: a check of 200,000
// documents needs the positions of the few objects its findings name, and kept for every object they were most of
// its memory). An object's source then knows its document's span and reads it again, by the same reader as the first
// time (so the positions are exactly the eager ones), each time its `ranges` are read; nothing is kept but the last
// document's, so that the objects of one List document do not read it once each.

import type { FieldRanges, KubeObject, ObjectSource } from '../../engine/model';

/** Reads [start, end) of the text again, numbering its documents from `firstDocIndex`, with positions. */
export type ReadSpan = (start: number, end: number, firstDocIndex: number) => KubeObject[];

const keyOf = (docIndex: number, itemPath: readonly number[]) => `${docIndex}:${itemPath.join('.')}`;

/** The positions of one file's documents, read again on demand. */
export class LazyPositions {
  private last: { start: number; ranges: Map<string, FieldRanges> } | undefined;

  constructor(
    readonly file: string,
    private readonly read: ReadSpan,
  ) {}

  /** The source of an object read from the span [start, end) whose first document is numbered `firstDocIndex`. */
  source(docIndex: number, itemPath: number[], start: number, end: number, firstDocIndex: number): ObjectSource {
    return new LazySource(this.file, docIndex, itemPath, { positions: this, start, end, firstDocIndex });
  }

  rangesOf(span: Span, docIndex: number, itemPath: readonly number[]): FieldRanges | undefined {
    if (this.last?.start !== span.start) {
      const ranges = new Map<string, FieldRanges>();
      try {
        for (const o of this.read(span.start, span.end, span.firstDocIndex)) {
          if (o.source?.ranges) ranges.set(keyOf(o.source.docIndex, o.source.itemPath), o.source.ranges);
        }
      } catch {
        // Positions are a convenience: unknown rather than a failure.
      }
      this.last = { start: span.start, ranges };
    }
    return this.last.ranges.get(keyOf(docIndex, itemPath));
  }
}

interface Span {
  positions: LazyPositions;
  start: number;
  end: number;
  firstDocIndex: number;
}

/**
 * An ObjectSource whose `ranges` are read from its document each time they are asked for (a few microseconds for a
 * small document), unless set. The span is private: the source prints, compares and copies as a plain one.
 */
class LazySource implements ObjectSource {
  readonly #span: Span;
  #ranges: FieldRanges | undefined;

  constructor(
    public file: string,
    public docIndex: number,
    public itemPath: number[],
    span: Span,
  ) {
    this.#span = span;
  }

  get ranges(): FieldRanges | undefined {
    return this.#ranges ?? this.#span.positions.rangesOf(this.#span, this.docIndex, this.itemPath);
  }

  set ranges(r: FieldRanges | undefined) {
    this.#ranges = r;
  }
}

/** Whether an object's positions are still to be found by resolveRanges (JSON), rather than known or read on demand. */
export function positionsPending(source: ObjectSource | undefined): boolean {
  return source !== undefined && !(source instanceof LazySource) && source.ranges === undefined;
}
