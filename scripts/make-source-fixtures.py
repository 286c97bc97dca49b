#!/usr/bin/env python3
"""Writes the sources of the source-mapping fixtures (Tests/Fixtures/sources/), with the line of
every broken link they hold: scripts/make-source-fixtures.sh compiles them.

latex/src: a LaTeX manual in 5 input files (main.tex and chapters/*.tex), 100 links of which 20
are broken (10 misspelt schemes, htps://, and 10 links to missing PDFs), some of whose text runs
over two source lines, two on one line, one broken target used in two files (search alone cannot
tell them apart; SyncTeX can). markdown/: the same kind of document in pandoc Markdown (30 links,
6 broken). html/: an HTML page for Chromium (30 links, 6 broken). sphinx/: reStructuredText in two
files for Sphinx's LaTeX builder (18 links, 6 broken). expected.json beside each:
every broken target with the file and line that spell it.
"""
import json, os, sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "sources")


def latex():
    files = {"main.tex": [], "chapters/install.tex": [], "chapters/config.tex": [], "chapters/usage.tex": [],
             "chapters/reference.tex": []}
    expected = []
    main = files["main.tex"]
    main += [r"\documentclass{article}", r"\usepackage[hidelinks]{hyperref}", r"\begin{document}",
             r"\section{Overview}\label{sec:main}"]

    def body(name, lines, start):
        n = start
        for i in range(20):
            k = n + i
            good = f"https://example.com/{name}/page-{i}"
            if i == 10 and name in ("main.tex", "chapters/usage.tex"):
                # One broken target in two files: search finds it twice, SyncTeX tells them apart.
                target = "htps://example.com/shared/broken"
                lines.append(f"The shared \\href{{{target}}}{{misspelt target}} is here too.")
                expected.append({"target": target, "file": name, "line": len(lines)})
            elif i in (0, 10):
                target = f"htps://example.com/{name}/broken-{i}"
                lines.append(f"Text before the link \\href{{{target}}}{{a misspelt link {i}}} and after.")
                expected.append({"target": target, "file": name, "line": len(lines)})
            elif i in (3, 13):
                target = f"missing-{name.split('/')[-1][:-4]}-{i}.pdf"
                # Its text runs over two source lines.
                lines.append(f"See \\href{{{target}}}{{the missing")
                expected.append({"target": target, "file": name, "line": len(lines)})
                lines.append(f"document number {i}}} for more.")
            elif i % 5 == 1:
                lines.append(f"\\href{{{good}}}{{A fine link {i}}} starts this line, \\url{{{good}/b}} ends it.")
            elif i % 5 == 2:
                lines.append(f"Back to \\ref{{sec:main}} and on to \\href{{{good}}}{{page {i}}}.")
            else:
                lines.append(f"Nothing but words on this line about {name} and item {i}.")
            lines.append("")
        return lines

    body("main.tex", main, 0)
    for name in ["chapters/install.tex", "chapters/config.tex", "chapters/usage.tex", "chapters/reference.tex"]:
        lines = files[name]
        lines += [f"\\section{{{name.split('/')[-1][:-4].title()}}}", ""]
        body(name, lines, 0)
        main.append(f"\\input{{{name[:-4]}}}")
    main.append(r"\end{document}")
    return files, expected


def markdown():
    lines = ["---", "title: A Markdown manual", "---", "", "# Overview {#overview}", ""]
    expected = []
    for i in range(30):
        if i % 5 == 0:
            t = f"htps://example.com/md/broken-{i}"
            lines.append(f"Words and [a misspelt link {i}]({t}) in a sentence.")
            expected.append({"target": t, "file": "manual.md", "line": len(lines)})
        elif i % 5 == 1:
            lines.append(f"A [fine link](https://example.com/md/ok-{i}) and <https://example.org/md/{i}>.")
        elif i % 5 == 2:
            lines.append(f"Back to the [overview](#overview) and [page {i}](https://example.com/md/p{i}).")
        else:
            lines.append(f"Plain words about item {i}, [with a link](https://example.com/md/x{i}).")
        lines.append("")
    return {"manual.md": lines}, expected


def html():
    lines = ["<!doctype html>", "<html><head><meta charset=utf-8><title>HTML manual</title></head><body>",
             '<h1 id="top">An HTML manual</h1>']
    expected = []
    for i in range(30):
        if i % 5 == 0:
            t = f"htps://example.com/html/broken-{i}"
            lines.append(f'<p>Words and <a href="{t}">a misspelt link {i}</a> in a sentence.</p>')
            expected.append({"target": t, "file": "manual.html", "line": len(lines)})
        elif i % 5 == 1:
            lines.append(f'<p>A <a href="https://example.com/html/ok-{i}">fine link</a>.</p>')
        elif i % 5 == 2:
            lines.append(f'<p>Back to the <a href="#top">top</a> and <a href="https://example.com/h/{i}">page {i}</a>.</p>')
        else:
            lines.append(f'<p>Plain words about item {i}, <a href="https://example.com/html/x{i}">with a link</a>.</p>')
    lines.append("</body></html>")
    return {"manual.html": lines}, expected


def sphinx():
    conf = ["project = 'An RST manual'", "author = 'pdfpipe'", "extensions = []",
            "latex_documents = [('index', 'manual.tex', 'An RST manual', 'pdfpipe', 'manual')]"]
    index = ["An RST manual", "=============", "", ".. toctree::", "", "   usage", "", ".. _overview:", "",
             "Overview", "--------", ""]
    usage = ["Usage", "=====", ""]
    expected = []
    for name, lines in (("index.rst", index), ("usage.rst", usage)):
        for i in range(15):
            if i % 5 == 0:
                t = f"htps://example.com/rst/{name[:-4]}/broken-{i}"
                lines.append(f"Words and `a misspelt link {i} <{t}>`_ in a sentence.")
                expected.append({"target": t, "file": name, "line": len(lines)})
            elif i % 5 == 1:
                lines.append(f"A `fine link {name[:-4]} {i} <https://example.com/rst/{name[:-4]}/ok-{i}>`_.")
            elif i % 5 == 2:
                lines.append(f"Back to :ref:`overview` and https://example.com/rst/{name[:-4]}/p{i} as it is.")
            else:
                lines.append(f"Plain words about item {i} of {name[:-4]}.")
            lines.append("")
    return {"conf.py": conf, "index.rst": index, "usage.rst": usage}, expected


for folder, (files, expected) in {
    "latex/src": latex(), "markdown/src": markdown(), "html/src": html(), "sphinx/src": sphinx()
}.items():
    for name, lines in files.items():
        path = os.path.join(root, folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(root, folder, "..", "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")
