// How Jiangu treats each field of a file or link it reads: the trust boundary, written down once.
// A field is either raw (a number or text a model, a harness or a person produced: range-checked at
// the border against bounds a real model can produce, stated here) or derived (a number computed from
// raw fields: recomputed on import and never stored from the file, or compared with the
// recomputation and refused when it differs, naming the field and its place).

/** A raw field: read, checked against `check` (a sentence stating the bound and why), stored as read. */
export interface RawField {
  readonly class: 'raw';
  readonly check: string;
  /** Other fields it is checked against (a result's task against the run's tasks), where its check names some. */
  readonly against?: readonly string[];
}

/**
 * A derived field: `recomputed` means the file's value is discarded and the page's own value is
 * stored; `compared` means the file's value must equal the recomputation from `from` (within the
 * stated tolerance), or the file is refused naming the field; `claim` means the file's value is kept
 * only as what the file states, range-checked as a raw field, shown beside the recomputation with
 * every difference listed ("the file's summary disagrees with its items"), and never used as a
 * number of the run.
 */
export interface DerivedField {
  readonly class: 'derived';
  readonly how: 'recomputed' | 'compared' | 'claim';
  /** The raw fields it is computed from (paths in the same table). */
  readonly from: readonly string[];
}

export type FieldClass = RawField | DerivedField;

/**
 * One format's fields: path (list positions as `[*]`, the FieldReader's generalPath form) → class.
 * Every path a reader accepts must be listed; the mutation tests check that.
 */
export type FieldTable = Readonly<Record<string, FieldClass>>;

export const raw = (check: string, ...against: string[]): RawField => (against.length ? { class: 'raw', check, against } : { class: 'raw', check });
export const recomputed = (...from: string[]): DerivedField => ({ class: 'derived', how: 'recomputed', from });
export const compared = (...from: string[]): DerivedField => ({ class: 'derived', how: 'compared', from });
/** `check`: the range the claim is held to (it is shown, so it is bounded as a raw field is). */
export const claim = (check: string, ...from: string[]): DerivedField & { readonly check: string } => ({ class: 'derived', how: 'claim', from, check });
