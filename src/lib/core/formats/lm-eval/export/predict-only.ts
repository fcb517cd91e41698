// Whether an export only predicts: it has multiple-choice tasks and none of them has a key (AC-EVAL's
// test split, whose answers its authors keep to score submissions). Such a folder runs with
// `--predict_only`, its group aggregates nothing, and the import keeps its predictions unscored.

/** The part of an exported task this decides on (ExportedTask, ReadmeInput's tasks). */
export interface TaskKind {
  kind: 'multiple-choice' | 'generation';
  /** A multiple-choice task none of whose items has a key. */
  unscored?: true;
}

export function predictsOnly(tasks: readonly TaskKind[]): boolean {
  return tasks.some((task) => task.kind === 'multiple-choice') && tasks.every((task) => task.kind !== 'multiple-choice' || task.unscored === true);
}
