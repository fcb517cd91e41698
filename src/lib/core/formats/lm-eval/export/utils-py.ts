// utils.py of an exported folder: Jiangu's multiple-choice prompt (build-prompt.ts) written again in
// Python, reading the protocol's templates (written in as data, from the McProtocol record) and the
// doc (the item and the exemplars Jiangu chose for it). It renders; it never looks a prompt up.
// Every rule below mirrors one in buildMcPrompt; the export test renders every prompt with it.
import type { McProtocol } from '../../../protocols/mc-protocols.ts';
import { OPTION_LETTERS } from '../../../protocols/multiple-choice.ts';

/** A Python literal of a string or null: JSON's string syntax is valid Python (ensure_ascii-free). */
export const py = (value: string | null): string => (value === null ? 'None' : JSON.stringify(value));

/**
 * `unreleasedKeys`: the export holds items without an answer (AC-EVAL's test split). Their target
 * is "" rather than -100: ConfigurableTask.__init__ (lm_eval/api/task.py at 4e7e0d4, and every
 * version since 2023) runs doc_to_target on the first doc and indexes the choices with an integer
 * target (`test_choice[test_target]`), so -100 raised IndexError before any request. A string goes
 * through str() there, and process_results maps a string that is no choice to its "no label"; the
 * tasks' metric is `bypass`, so nothing is scored against it. Other exports keep their text.
 */
export function utilsPy(protocol: McProtocol, templateHash: string, unreleasedKeys = false): string {
  return `# Jiangu (鉴古) multiple-choice prompts for lm-evaluation-harness: protocol "${protocol.id}" v${protocol.version}.
# Written by Jiangu's export; the harness calls these through \`!function utils.<name>\` in the task YAMLs.
# doc_to_text renders Jiangu's prompt from the doc: the item and, in "exemplars", the dev items Jiangu
# chose for it (the first k of its task's dev split, in order), so the prompt equals Jiangu's byte for byte.
# Template hash (SHA-256 of Jiangu's canonical protocol text): ${templateHash}
import re

PROTOCOL_ID = ${py(protocol.id)}
INSTRUCTION = ${py(protocol.instruction)}
FEW_SHOT_INSTRUCTION = ${py(protocol.fewShotInstruction)}
QUESTION = ${py(protocol.questionTemplate)}
EXEMPLAR = ${py(protocol.exemplarTemplate)}
OPTION = ${py(protocol.optionTemplate)}
OPTION_SEPARATOR = ${py(protocol.optionSeparator)}
ANSWER_CUE = ${py(protocol.answerCue)}
EXEMPLAR_SEPARATOR = ${py(protocol.exemplarSeparator)}
LETTERS = [${OPTION_LETTERS.map((l) => py(l)).join(', ')}]

# {name} with an ASCII name, replaced in one pass: text from the data that holds "{options}" stays.
_FIELD = re.compile(r"\\{([A-Za-z0-9_]+)\\}")


def _fill(template, values):
    return _FIELD.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def _question(template, item, n):
    """A question block (question, its options A.. as many as it has) ending with the answer cue."""
    options = OPTION_SEPARATOR.join(
        _fill(OPTION, {"letter": LETTERS[i], "option": option}) for i, option in enumerate(item["options"])
    )
    return _fill(template, {"question": item["question"], "options": options, "n": str(n)}) + ANSWER_CUE


def doc_to_text(doc):
    exemplars = doc["exemplars"]
    instruction = FEW_SHOT_INSTRUCTION if exemplars and FEW_SHOT_INSTRUCTION is not None else INSTRUCTION
    parts = [_fill(instruction, {"subject": doc["subject"]})]
    for i, exemplar in enumerate(exemplars):
        parts.append(_question(EXEMPLAR, exemplar, i + 1) + exemplar["answer"] + EXEMPLAR_SEPARATOR)
    parts.append(_question(QUESTION, doc, 0))
    return "".join(parts)


def doc_to_choice(doc):
    """The item's own letters, bare: with target_delimiter "" the continuation is the letter Jiangu scores."""
    return LETTERS[: len(doc["options"])]


${unreleasedKeys ? KEYLESS_TARGET : TARGET}`;
}

// The text every export with keys has always had (kept byte for byte; its -100 branch is never taken there).
// The cloze utils.py (cloze-py.ts) has the same targets: the gold option's index is the gold letter's.
export const TARGET = `def doc_to_target(doc):
    """The gold letter's index; -100 (the harness's "no such label") where the key is not released (AC-EVAL test)."""
    answer = doc["answer"]
    return LETTERS.index(answer) if answer in LETTERS else -100
`;

// An export with items that have no key: "" for them, as the comment on utilsPy says why.
export const KEYLESS_TARGET = `def doc_to_target(doc):
    """The gold letter's index; "" where the answer is not released (AC-EVAL's test split).

    The harness's task constructor indexes the choices with an integer target on the first doc, so no
    integer can stand for "no answer"; "" is no choice, and these tasks' metric (bypass) scores nothing.
    """
    answer = doc["answer"]
    return LETTERS.index(answer) if answer in LETTERS else ""
`;
