// Each dataset's tasks and how they group (ACLUE categories, AC-EVAL supercategories, AncientBench
// competencies, WenMind domains). Mapping is code, not data: AC-EVAL's subject_mapping.json is copied
// here by hand and a unit test checks the copy against the upstream file.
import type { GenerationTask } from './types.ts';

export interface TaskGroup {
  key: string;
  zh: string;
  en: string;
}

export interface TaskInfo {
  /** The key items carry in `Item.task`. */
  key: string;
  zh: string;
  en: string;
  /** Key of the dataset's TaskGroup; null for datasets without groups. */
  group: string | null;
  kind: 'multiple-choice' | 'generation';
  /** How a generation task is scored. */
  generationTask?: GenerationTask;
  /** For classification: the label set a prompt offers and a reference is drawn from. */
  labels?: readonly string[];
  /** For translation: which way. WenMind's 白文翻译 goes from modern to classical Chinese. */
  direction?: 'classical-to-modern' | 'modern-to-classical';
}

const mc = (key: string, zh: string, en: string, group: string | null): TaskInfo => ({ key, zh, en, group, kind: 'multiple-choice' });

// ACLUE: file name -> English name (upstream src/categories.py, made readable) and category.
// Chinese category names are ours.
export const ACLUE_GROUPS: readonly TaskGroup[] = [
  { key: 'Lexical', zh: '词汇', en: 'Lexical' },
  { key: 'Syntactic', zh: '句法', en: 'Syntactic' },
  { key: 'Semantic', zh: '语义', en: 'Semantic' },
  { key: 'Inference', zh: '推理', en: 'Inference' },
  { key: 'Knowledge', zh: '知识', en: 'Knowledge' },
];
export const ACLUE_TASKS: readonly TaskInfo[] = [
  mc('古文单字多义', '古文单字多义', 'Polysemy Resolution', 'Lexical'),
  mc('通假字', '通假字', 'Homographic Character Resolution', 'Lexical'),
  mc('古汉语命名体识别', '古汉语命名体识别', 'Named Entity Recognition', 'Lexical'),
  mc('古文断句', '古文断句', 'Sentence Segmentation', 'Syntactic'),
  mc('对联', '对联', 'Couplet Prediction', 'Semantic'),
  mc('古诗词上下句预测', '古诗词上下句预测', 'Poetry Context Prediction', 'Semantic'),
  mc('古诗词质量评估', '古诗词质量评估', 'Poetry Quality Assessment', 'Inference'),
  mc('古文阅读理解', '古文阅读理解', 'Reading Comprehension', 'Inference'),
  mc('古诗词曲鉴赏', '古诗词曲鉴赏', 'Poetry Appreciation', 'Inference'),
  mc('诗词情感分类', '诗词情感分类', 'Poetry Sentiment Analysis', 'Inference'),
  mc('古汉语知识', '古汉语知识', 'Basic Ancient Chinese', 'Knowledge'),
  mc('国学常识', '国学常识', 'Ancient Chinese Culture', 'Knowledge'),
  mc('医古文', '医古文', 'Ancient Medical', 'Knowledge'),
  mc('古代文学知识', '古代文学知识', 'Ancient Literature', 'Knowledge'),
  mc('古音学', '古音学', 'Ancient Phonetics', 'Knowledge'),
];

export const CMMLU_ANCIENT_TASKS: readonly TaskInfo[] = [mc('ancient_chinese', '古汉语', 'Ancient Chinese', null)];

// AC-EVAL: subject_mapping.json at the pinned commit. Group keys are its "Supercategory" strings;
// the Chinese supercategory names are ours.
export const AC_EVAL_GROUPS: readonly TaskGroup[] = [
  { key: 'General Historical Knowledge', zh: '通用历史知识', en: 'General Historical Knowledge' },
  { key: 'Short Text Understanding', zh: '短文本理解', en: 'Short Text Understanding' },
  { key: 'Long Text Understanding', zh: '长文本理解', en: 'Long Text Understanding' },
];
export const AC_EVAL_TASKS: readonly TaskInfo[] = [
  mc('historical_facts', '历史史实', 'Historical Facts', 'General Historical Knowledge'),
  mc('geography', '古代地理', 'Geography', 'General Historical Knowledge'),
  mc('social_customs', '社会生活习俗', 'Social Customs', 'General Historical Knowledge'),
  mc('art_and_cultural_heritage', '艺术和文化遗产', 'Art and Cultural Heritage', 'General Historical Knowledge'),
  mc('philosophy_and_religion', '哲学和宗教', 'Philosophy and Religion', 'General Historical Knowledge'),
  mc('lexical_pragmatics_analysis', '词语语用分析', 'Lexical Pragmatics Analysis', 'Short Text Understanding'),
  mc('allusions_and_idioms', '典故和成语理解', 'Allusions and Idioms', 'Short Text Understanding'),
  mc('word_sense_disambiguation', '词义消歧', 'Word Sense Disambiguation', 'Short Text Understanding'),
  mc('translation', '古文翻译', 'Translation', 'Short Text Understanding'),
  mc('event_extraction', '事件抽取', 'Event Extraction', 'Short Text Understanding'),
  mc('sentence_pauses', '文本断句', 'Sentence Pauses', 'Long Text Understanding'),
  mc('summarization_and_analysis', '文本概括和分析', 'Summarization and Analysis', 'Long Text Understanding'),
  mc('poetry_appreciation', '诗歌鉴赏', 'Poetry Appreciation', 'Long Text Understanding'),
];

/** C3Bench's ten domains, as its classification task labels them. */
export const C3_CATEGORIES: readonly string[] = ['诗', '史', '儒', '道', '佛', '农', '法', '艺', '医', '兵'];

/**
 * WenMind's 主题分类 labels, upstream order, with the trailing 藏 dropped (医藏 -> 医) so references
 * have C3Bench's one-character form. Not C3Bench's set: 集 子 易 are WenMind's only, 农 法 兵 C3Bench's.
 */
export const WENMIND_TOPIC_LABELS: readonly string[] = ['佛', '史', '诗', '集', '子', '易', '艺', '医', '道', '儒'];

const gen = (key: string, zh: string, en: string, group: string | null, generationTask: GenerationTask, extra: Partial<TaskInfo> = {}): TaskInfo => ({
  key,
  zh,
  en,
  group,
  kind: 'generation',
  generationTask,
  ...extra,
});

export const C3BENCH_TASKS: readonly TaskInfo[] = [
  gen('classification', '分类', 'Classification', null, 'classification', { labels: C3_CATEGORIES }),
  gen('retrieval', '出处检索', 'Retrieval', null, 'retrieval'),
  gen('ner', '命名实体识别', 'Named Entity Recognition', null, 'ner'),
  gen('punctuation', '句读', 'Punctuation', null, 'punctuation'),
  gen('translation', '文白翻译', 'Translation', null, 'translation', { direction: 'classical-to-modern' }),
];

// WenMind: the tasks this project imports (multiple choice with one letter answer, and the five
// generation tasks), keyed by coarse_grained_task_zh, grouped by the record's `domain`.
// Chinese domain names are ours.
export const WENMIND_GROUPS: readonly TaskGroup[] = [
  { key: 'ancient prose', zh: '古文', en: 'Ancient Prose' },
  { key: 'ancient poetry', zh: '古诗词', en: 'Ancient Poetry' },
  { key: 'ancient literary culture', zh: '古代文学文化', en: 'Ancient Literary Culture' },
];
export const WENMIND_TASKS: readonly TaskInfo[] = [
  mc('虚词', '虚词', 'Function Words', 'ancient prose'),
  mc('单字多义', '单字多义', 'Polysemy', 'ancient prose'),
  mc('通假字', '通假字', 'Homophones', 'ancient prose'),
  mc('句式', '句式', 'Sentence Structure', 'ancient prose'),
  mc('古诗词赏析', '古诗词赏析', 'Appreciation', 'ancient poetry'),
  mc('国学常识问答', '国学常识问答', 'Knowledge of Sinology Q&A', 'ancient literary culture'),
  mc('古汉语音韵', '古汉语音韵', 'Historical Chinese Phonology', 'ancient literary culture'),
  gen('主题分类', '主题分类', 'Topic Classification', 'ancient prose', 'classification', { labels: WENMIND_TOPIC_LABELS }),
  gen('命名实体识别', '命名实体识别', 'Named Entity Recognition', 'ancient prose', 'ner'),
  gen('句读', '句读', 'Punctuation', 'ancient prose', 'punctuation'),
  gen('文白翻译', '文白翻译', 'Classical Chinese to Modern Chinese', 'ancient prose', 'translation', { direction: 'classical-to-modern' }),
  gen('白文翻译', '白文翻译', 'Modern Chinese to Classical Chinese', 'ancient prose', 'translation', { direction: 'modern-to-classical' }),
];

// AncientBench (Zhou et al. 2025): ten tasks in four competencies. Items carry the English name;
// files may use either. Chinese competency names are ours.
export const ANCIENTBENCH_GROUPS: readonly TaskGroup[] = [
  { key: 'glyph', zh: '字形', en: 'Glyph' },
  { key: 'pronunciation', zh: '字音', en: 'Pronunciation' },
  { key: 'meaning', zh: '字义', en: 'Meaning' },
  { key: 'context', zh: '语境', en: 'Context' },
];
export const ANCIENTBENCH_TASKS: readonly TaskInfo[] = [
  mc('Radical', '部首', 'Radical', 'glyph'),
  mc('Radical Meaning', '部首义', 'Radical Meaning', 'glyph'),
  mc('Pronunciation', '读音', 'Pronunciation', 'pronunciation'),
  mc('Phonetic Radical', '声旁', 'Phonetic Radical', 'pronunciation'),
  mc('Homophone', '同音字', 'Homophone', 'pronunciation'),
  mc('ExcDoc Word', '出土文献词义', 'ExcDoc Word', 'meaning'),
  mc('TraDoc Word', '传世文献词义', 'TraDoc Word', 'meaning'),
  mc('Cloze', '完形填空', 'Cloze', 'context'),
  mc('Phonetic Loan Character', '通假字', 'Phonetic Loan Character', 'context'),
  mc('Translation', '翻译', 'Translation', 'context'),
];
