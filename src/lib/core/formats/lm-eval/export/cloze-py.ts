// utils.py of a cloze export: Jiangu's cloze context (build-cloze.ts) written again in Python, reading
// the protocol's cloze layout (written in as data, from McProtocol.cloze) and the doc (the item and the
// exemplars Jiangu chose for it), and the option texts as the choices. Every rule below mirrors one in
// buildClozePrompt; the export test renders every context with it and compares it with Jiangu's.
import type { McProtocol } from '../../../protocols/mc-protocols.ts';
import { OPTION_LETTERS } from '../../../protocols/multiple-choice.ts';
import { KEYLESS_TARGET, TARGET, py } from './utils-py.ts';

/**
 * `clozeHash`: clozeTemplateHash(protocol). `unreleasedKeys`: as utilsPy's (AC-EVAL's test split):
 * the target is the gold option's index either way, "" where the doc has no answer.
 */
export function clozePy(protocol: McProtocol, clozeHash: string, unreleasedKeys = false): string {
  const layout = protocol.cloze;
  return `# Jiangu (鉴古) cloze (option text) prompts for lm-evaluation-harness: protocol "${protocol.id}", cloze layout v${layout.version}.
# Written by Jiangu's export; the harness calls these through \`!function utils.<name>\` in the task YAMLs.
# doc_to_text renders Jiangu's cloze context from the doc: the subject, the exemplars Jiangu chose for it
# (the first k of its task's dev split, in order), each ending in its gold option's text, and the
# question without its options, ending in the answer cue. doc_to_choice gives the option texts: each is
# scored as the continuation of that context (target_delimiter "" in the task YAML).
# Template hash (SHA-256 of Jiangu's canonical cloze text): ${clozeHash}
import re

PROTOCOL_ID = ${py(protocol.id)}
CLOZE_VERSION = ${layout.version}
INSTRUCTION = ${py(layout.instruction)}
FEW_SHOT_INSTRUCTION = ${py(layout.fewShotInstruction)}
QUESTION = ${py(layout.questionTemplate)}
EXEMPLAR = ${py(layout.exemplarTemplate)}
ANSWER_CUE = ${py(layout.answerCue)}
EXEMPLAR_SEPARATOR = ${py(layout.exemplarSeparator)}
# Between the answer cue and an option's text, in the exemplars as in the requests (the YAML's target_delimiter).
TARGET_DELIMITER = ${py(layout.targetDelimiter)}
LETTERS = [${OPTION_LETTERS.map((l) => py(l)).join(', ')}]

# {name} with an ASCII name, replaced in one pass: text from the data that holds "{question}" stays.
_FIELD = re.compile(r"\\{([A-Za-z0-9_]+)\\}")


def _fill(template, values):
    return _FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def doc_to_text(doc):
    exemplars = doc["exemplars"]
    instruction = FEW_SHOT_INSTRUCTION if exemplars and FEW_SHOT_INSTRUCTION is not None else INSTRUCTION
    parts = [_fill(instruction, {"subject": doc["subject"]})]
    for i, exemplar in enumerate(exemplars):
        gold = exemplar["options"][LETTERS.index(exemplar["answer"])]
        question = _fill(EXEMPLAR, {"question": exemplar["question"], "n": str(i + 1)})
        parts.append(question + ANSWER_CUE + TARGET_DELIMITER + gold + EXEMPLAR_SEPARATOR)
    parts.append(_fill(QUESTION, {"question": doc["question"]}) + ANSWER_CUE)
    return "".join(parts)


def doc_to_choice(doc):
    """The item's option texts, in its order: the harness scores each as the continuation of doc_to_text."""
    return list(doc["options"])


${unreleasedKeys ? KEYLESS_TARGET : TARGET}`;
}
