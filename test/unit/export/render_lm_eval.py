#!/usr/bin/env python3
"""Renders every request of an exported Jiangu folder the way lm-evaluation-harness would.

Usage: python3 render_lm_eval.py <folder>   (writes JSON Lines to stdout)

As the harness (commit 4e7e0d4: lm_eval/tasks/_yaml_loader.py, lm_eval/api/task.py,
lm_eval/api/model.py) does, and written here from reading it:
  - each YAML is loaded with PyYAML's safe loader (C when built with libyaml) plus a `!function`
    constructor that imports `<module>.py` beside the YAML and returns the named function;
  - the docs are the JSON Lines file named in dataset_kwargs.data_files[test_split], relative to the
    directory lm_eval runs in (the folder, as its README says);
  - with num_fewshot 0 and description "", the context is doc_to_text(doc) alone;
  - a multiple-choice request per choice is (context, target_delimiter + choice);
  - the HF backend moves the context's trailing whitespace into the continuation before encoding.
  - a generate_until request is (context, generation_kwargs).
Lines out: {"kind": "group"} per group YAML, {"kind": "task"} per task YAML, {"kind": "request"} per
multiple-choice doc, {"kind": "generation"} per generation doc.
"""
import importlib.util
import json
import os
import sys
from pathlib import Path

import yaml

BASE_LOADER = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader


def loader_for(base_dir):
    class Loader(BASE_LOADER):
        pass

    def function_tag(loader, node):
        module_name, _, function_name = loader.construct_scalar(node).rpartition(".")
        module_path = (base_dir / (module_name.replace(".", "/") + ".py")).resolve()
        spec = importlib.util.spec_from_file_location(str(module_path.with_suffix("")), module_path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return getattr(module, function_name)

    Loader.add_constructor("!function", function_tag)
    return Loader


def load_config(path):
    with path.open("rb") as handle:
        config = yaml.load(handle, Loader=loader_for(path.parent))
    if not isinstance(config, dict):
        raise SystemExit(f"{path}: not a YAML mapping")
    return config


def hf_pair(context, continuation):
    """lm_eval/api/model.py: trailing whitespace of the context goes to the continuation."""
    spaces = len(context) - len(context.rstrip())
    if spaces > 0:
        return context[:-spaces], context[-spaces:] + continuation
    return context, continuation


def resolve(config, key, doc):
    hook = config[key]
    if not callable(hook):
        raise SystemExit(f"{config.get('task')}: {key} is not a !function hook")
    return hook(doc)


def main(folder):
    folder = Path(folder).resolve()
    os.chdir(folder)
    out = sys.stdout
    for path in sorted(folder.glob("*.yaml")):
        config = load_config(path)
        if "group" in config:
            out.write(json.dumps({"kind": "group", "file": path.name, "config": {k: v for k, v in config.items()}}, ensure_ascii=False) + "\n")
            continue
        split = config["test_split"]
        data_file = Path(config["dataset_kwargs"]["data_files"][split])
        settings = {
            "dataset_path": config["dataset_path"],
            "output_type": config["output_type"],
            "target_delimiter": config.get("target_delimiter", " "),
            "num_fewshot": config.get("num_fewshot"),
            "description": config.get("description", ""),
            "metric_list": config.get("metric_list"),
            "metadata": config.get("metadata"),
        }
        out.write(json.dumps({"kind": "task", "file": path.name, "task": config["task"], "data_file": str(data_file), "settings": settings}, ensure_ascii=False) + "\n")
        with data_file.open(encoding="utf-8") as handle:
            docs = [json.loads(line) for line in handle if line.strip()]
        for doc_id, doc in enumerate(docs):
            if settings["output_type"] == "generate_until":
                # A generation request is (context, generation_kwargs).
                out.write(json.dumps({
                    "kind": "generation",
                    "task": config["task"],
                    "doc_id": doc_id,
                    "jiangu_id": doc["jiangu_id"],
                    "context": resolve(config, "doc_to_text", doc),
                    "target": resolve(config, "doc_to_target", doc),
                    "generation_kwargs": config["generation_kwargs"],
                }, ensure_ascii=False) + "\n")
                continue
            context = resolve(config, "doc_to_text", doc)
            choices = resolve(config, "doc_to_choice", doc)
            target = resolve(config, "doc_to_target", doc)
            arguments = [[context, settings["target_delimiter"] + choice] for choice in choices]
            out.write(json.dumps({
                "kind": "request",
                "task": config["task"],
                "doc_id": doc_id,
                "jiangu_id": doc["jiangu_id"],
                "doc": {k: doc[k] for k in ("question", "options", "answer")},
                "context": context,
                "choices": choices,
                "target": target,
                "arguments": arguments,
                "hf": [list(hf_pair(c, cont)) for c, cont in arguments],
            }, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
