#!/usr/bin/env bash
# The contributor recipes of docs/development.md, followed literally (#48): in a copy of this tree,
# the recipe's toy stage (one rule with its sample, two options) and toy report format
# (Tests/PDFPipeCLITests/Recipe/) are moved into Sources/, each joins its table with one line,
# the schema, the rule pages and docs/reference.md are updated as the recipe says, and the fast
# tier runs with them there. It must pass: no test may pin what the catalog holds.
#
#   bash scripts/recipe-check.sh [DIR]     (DIR: where the copy goes; default a temporary folder)
#
# Part of the integration tier (scripts/test.sh): the copy is built from nothing (about 3 min).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
copy=${1:-$(mktemp -d /tmp/pdfpipe-recipe.XXXXXX)}
mkdir -p "$copy"
echo "recipe-check: copying the tree to $copy" >&2
# The files git knows (committed or not), not build products or outputs.
git ls-files -z --cached --others --exclude-standard | (cd "$root" && xargs -0 cp --parents -t "$copy")
cd "$copy"
# What scripts/setup.sh --test makes in .build (moto's virtual environment, the report schemas):
# this tree's, not made again.
mkdir -p .build
[ -d "$root/.build/moto" ] && ln -sfn "$root/.build/moto" .build/moto
[ -d "$root/.build/report-schemas" ] && cp -r "$root/.build/report-schemas" .build/

# Adding a stage, a rule, an option: the stage's file in Sources/PDFPipeStages/<area>/.
mkdir -p Sources/PDFPipeStages/Toy
mv Tests/PDFPipeCLITests/Recipe/ToyStage.swift Sources/PDFPipeStages/Toy/ToyStage.swift
# Adding a report format: a file in Sources/PDFPipeCore/Reporters/ (that module does not import itself).
sed '1,/^import PDFPipeCore$/{/^import PDFPipeCore$/d}' Tests/PDFPipeCLITests/Recipe/ToyReporter.swift | sed '1{/^$/d}' \
  >Sources/PDFPipeCore/Reporters/ToyReporter.swift
rm Tests/PDFPipeCLITests/Recipe/ToyReporter.swift
python3 - <<'EOF'
import re

def add_line(path, anchor, line):
    """Adds `line` as the last element of the array literal that starts at `anchor`."""
    text = open(path).read()
    start = text.index(anchor)
    end = text.index("\n    ]", start)
    text = text[:end] + "\n" + line + text[end:]
    open(path, "w").write(text)

# One line in each table.
add_line("Sources/PDFPipeStages/StageTable.swift", "public static let all: [StageDescriptor] = [",
         "        ToyStage.descriptor,")
add_line("Sources/PDFPipeCore/Reporters/Reporter.swift", "public static let all: [any Reporter] = [",
         "        ToyReporter(),")

# docs/reference.md: the stage's options table, a row in the rules table, the format in --format's row.
ref = open("docs/reference.md").read()
section = """### `toy`

Says how large each file is.

| option | type | default | meaning |
|---|---|---|---|
| `maxBytes` | integer 0–1000000000 | `1000000` | bytes a file may have before `toy.large-file` |
| `label` | string | `toy` | the word the section says |

"""
ref = ref.replace("## Rules\n", section + "## Rules\n", 1)
row = "| `toy.large-file` | warning | the file has more bytes than `maxBytes` (the message says how many) | make the file smaller, or raise maxBytes |\n"
table = ref.index("| id | default | when | how to fix |")
end = ref.index("\n\n", table) + 1
ref = ref[:end] + row + ref[end:]
ref = ref.replace("`html`, `codequality` |", "`html`, `codequality`, `toy` |", 1)
open("docs/reference.md", "w").write(ref)
EOF

# Regenerate what is made from the declarations (the recipe's commands).
swift build --product pdfpipe
.build/debug/pdfpipe schema >pipelines/pipeline.schema.json
.build/debug/pdfpipe rules --pages docs/rules
# A new stage and format are public API (docs/api.md): the surface list grows by their declarations.
python3 scripts/shape.py --api >docs/api-surface.txt
git -C "$root" diff --no-index --stat "$root/pipelines/pipeline.schema.json" pipelines/pipeline.schema.json || true

# The fast tier, with the toy in pdfpipe's tables.
bash scripts/test.sh fast
echo "recipe-check: the recipe's stage, rule, options and format joined the tables; the fast tier passed" >&2
