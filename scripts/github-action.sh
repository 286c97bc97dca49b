#!/usr/bin/env bash
# The GitHub Action's entrypoint (action.yml): `pdfpipe github-action` reads the step's inputs
# (INPUT_<NAME>), runs pdfpipe, prints the annotations, appends the report to the step summary and
# writes the step's outputs (Sources/PDFPipeCLI/CLI+GitHubAction.swift). No shell handles the
# inputs: each listed input is one argument, and `args` is split by shell quoting in pdfpipe.
# Installed in the image as /usr/share/pdfpipe/github-action.sh (scripts/build-deb.sh). bash, not sh:
# dash drops the variables whose names hold a hyphen (INPUT_FAIL-ON) from what it runs.
exec pdfpipe github-action
