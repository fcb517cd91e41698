// The generation part of utils.py: C3Bench's prompts (protocols/generation.ts) written again in
// Python. As buildGenerationPrompt: the task's prompt, `{labels}` then `{text}` replaced once each.
import type { GenerationProtocol } from '../../../protocols/generation.ts';

const py = (value: string): string => JSON.stringify(value);

export function generationPy(protocol: GenerationProtocol, templateHash: string): string {
  const prompts = Object.entries(protocol.prompts)
    .map(([key, prompt]) => `    ${py(key)}: ${py(prompt)},`)
    .join('\n');
  return `

# Generation tasks: protocol "${protocol.id}" v${protocol.version} (C3Bench's prompts), template hash ${templateHash}.
# The doc names its prompt ("prompt_key") and, for classification, the labels offered, as Jiangu chose them.
GENERATION_PROMPTS = {
${prompts}
}
LABEL_SEPARATOR = ${py(protocol.labelSeparator)}


def gen_doc_to_text(doc):
    template = GENERATION_PROMPTS[doc["prompt_key"]]
    return template.replace("{labels}", LABEL_SEPARATOR.join(doc["labels"]), 1).replace("{text}", doc["input"], 1)


def gen_doc_to_target(doc):
    """The first reference; Jiangu scores the imported outputs against all of them with its own metrics."""
    return doc["references"][0]
`;
}
