// The one item shape every adapter produces and every protocol consumes, and the record that says
// where a stored dataset came from. Pure types: no DOM, no IndexedDB.

export type DatasetId = 'aclue' | 'cmmlu-ancient' | 'ac-eval' | 'wenmind' | 'ancientbench' | 'c3bench';
export type Split = 'dev' | 'test';
export type OptionLetter = 'A' | 'B' | 'C' | 'D';

/** The five C3Bench generation tasks; WenMind's matching tasks are scored as these too. */
export type GenerationTask = 'classification' | 'retrieval' | 'ner' | 'punctuation' | 'translation';

/** Where an item came from, for error messages and the per-item inspector. */
export interface ItemSource {
  /** The file's original relative path (e.g. `data/test/通假字.csv`) or the imported file's name. */
  file: string;
  /** 1-based line of a CSV/JSONL row (the header is line 1), or 0-based index in a JSON list. */
  line: number;
}

interface ItemBase {
  /** Unique within the dataset and stable across imports of the same files. */
  id: string;
  datasetId: DatasetId;
  /** The dataset's own task key (ACLUE: the file name, e.g. 通假字; AncientBench: the English task name). */
  task: string;
  split: Split;
  /** Position within (task, split) in file order: few-shot exemplars are the first k dev items. */
  order: number;
  source: ItemSource;
}

export interface MultipleChoiceItem extends ItemBase {
  kind: 'multiple-choice';
  question: string;
  /** Two to four options, in letter order (some WenMind items have three). */
  options: string[];
  /** The gold letter, or null where the benchmark does not release keys (AC-EVAL test). */
  answer: OptionLetter | null;
  explanation?: string;
}

export interface GenerationItem extends ItemBase {
  kind: 'generation';
  /** How the item is scored. */
  generationTask: GenerationTask;
  /** The classical text the prompt is built around (the paper's [文言文]). */
  input: string;
  /** The expected output(s): a category, a title (levels joined by ·), entities joined by 、, punctuated text, a translation. */
  references: string[];
}

export type Item = MultipleChoiceItem | GenerationItem;

export interface DatasetFile {
  /** Original relative path inside the upstream repository (or the imported file's name). */
  path: string;
  sha256: string;
  bytes: number;
}

export interface TaskCount {
  dev: number;
  test: number;
}

/** What is stored about a dataset beside its items: enough to cite it and to repeat a result on it. */
export interface DatasetRecord {
  id: DatasetId;
  title: string;
  /** `catalog`: downloaded from its pinned public source; `import`: a file the user supplied. */
  origin: 'catalog' | 'import';
  /** Upstream repository (owner/name) or, for imports, the URL or file name it came from. */
  source: string;
  /** The upstream commit the files were pinned to; null for imports. */
  commit: string | null;
  files: DatasetFile[];
  license: string;
  attribution: string;
  itemCount: number;
  tasks: Record<string, TaskCount>;
  /** ISO 8601 time of the import. */
  importedAt: string;
  /** For C3Bench imports: which JSON field fills which role. */
  fieldMapping?: Record<string, string>;
  /** A catalog download made through a data mirror: the mirror's address (the files' hashes are the pinned ones all the same). */
  mirror?: string;
}
