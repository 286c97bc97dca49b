#!/usr/bin/env python3
"""Runs the recipes of one README section as a CI system would, so that the README cannot drift
from what pdfpipe does (ReadmeRecipeTests calls this).

    run-readme-recipes.py README.md WORKDIR --bin DIR [--section TITLE] [--only N]...

Blocks of the section, in order:
- ```sh: each line (not blank, not a comment) runs with bash in WORKDIR.
- ```yaml without `jobs:`: a GitLab CI pipeline (see run_gitlab).
- ```yaml with `jobs:`: a GitHub Actions workflow. Jobs run in `needs` order (a job whose needs
  failed is skipped), a `strategy.matrix` of lists is expanded, steps run with `bash -e` in
  WORKDIR, `if: always()` steps run after a failure and others do not, `${{ matrix.X }}` is
  substituted, `${{ secrets.X }}`, `${{ vars.X }}` are empty, `$GITHUB_STEP_SUMMARY` and
  `$GITHUB_PATH` are files. Actions: checkout and cache do nothing here; upload-artifact /
  download-artifact copy files through WORKDIR/.artifacts as GitHub does (each artifact in a
  folder of its own name under the download path); upload-sarif checks that its file exists;
  pdfpipe/pdfpipe (this repository's action) runs its entrypoint, scripts/github-action.sh, with
  INPUT_* from `with:`; cache, cache/restore and cache/save do nothing. A failing step with
  `continue-on-error: true` does not fail its job.
  A job's `container:` (the pdfpipe image) is not pulled, and steps named "Install pdfpipe" are left
  out: DIR (the build under test) is put on PATH instead.

Prints JSON: one entry per block with its title (first comment line) and each step's command and
exit status (null: skipped).
"""
import itertools
import json
import os
import re
import shutil
import subprocess
import sys

import yaml


def blocks(readme, section):
    text = open(readme, encoding="utf-8").read()
    start = text.index("\n## " + section + "\n")
    end = text.find("\n## ", start + 1)
    body = text[start:end if end >= 0 else len(text)]
    return re.findall(r"```(sh|yaml)\n(.*?)```", body, re.S)


ACTION = "pdfpipe/pdfpipe"
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "action.yml")) as f:
    ACTION_DEFAULTS = {k: str(v.get("default", "")) for k, v in yaml.safe_load(f)["inputs"].items()
                       if "${{" not in str(v.get("default", ""))}
ENTRYPOINT = "bash " + os.path.join(os.path.dirname(os.path.abspath(__file__)), "github-action.sh")


def run_shell(script, workdir, env, errexit=False):
    args = ["bash", "-e", "-c", script] if errexit else ["bash", "-c", script]
    p = subprocess.run(args, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def substitute(text, matrix):
    def one(m):
        expr = m.group(1).strip()
        if expr.startswith("matrix."):
            return str(matrix[expr[len("matrix."):]])
        if expr.startswith("secrets.") or expr.startswith("vars."):
            return ""
        if expr == "github.run_id":
            return "1"
        raise SystemExit("unsupported expression: " + expr)
    return re.sub(r"\$\{\{(.*?)\}\}", one, text)


def copy(src, dst):
    if os.path.isdir(src):
        shutil.copytree(src, dst, dirs_exist_ok=True)
    else:
        os.makedirs(dst, exist_ok=True)
        shutil.copy2(src, dst)


def run_workflow(flow, workdir, base_env):
    jobs = flow["jobs"]
    order, done = [], set()
    while len(order) < len(jobs):
        ready = [j for j in jobs if j not in done and all(n in done for n in _list(jobs[j].get("needs")))]
        if not ready:
            raise SystemExit("jobs whose needs cannot be met")
        for j in ready:
            order.append(j)
            done.add(j)
    results, failed_jobs, steps_out = {}, set(), []
    # Artifacts belong to one workflow run.
    artifacts = os.path.join(workdir, ".artifacts")
    shutil.rmtree(artifacts, ignore_errors=True)
    for name in order:
        job = jobs[name]
        if any(n in failed_jobs for n in _list(job.get("needs"))):
            steps_out.append({"job": name, "skipped": "needs failed"})
            failed_jobs.add(name)
            continue
        matrix = (job.get("strategy") or {}).get("matrix") or {}
        keys = sorted(matrix)
        combos = [dict(zip(keys, values)) for values in itertools.product(*(matrix[k] for k in keys))] or [{}]
        for combo in combos:
            env = dict(base_env)
            summary = os.path.join(workdir, ".github", "step-summary-" + name)
            os.makedirs(os.path.dirname(summary), exist_ok=True)
            env["GITHUB_STEP_SUMMARY"] = summary
            env["GITHUB_PATH"] = os.path.join(workdir, ".github", "path-" + name)
            ok = True
            for step in job["steps"]:
                entry = {"job": name, "matrix": combo, "name": step.get("name", ""), "status": None}
                condition = step.get("if")
                if condition not in (None, "always()"):
                    raise SystemExit("unsupported condition: " + condition)
                if step.get("name") == "Install pdfpipe" or (not ok and condition != "always()"):
                    steps_out.append(entry)
                    continue
                if "run" in step:
                    script = substitute(step["run"], combo)
                    step_env = dict(env)
                    for k, v in (step.get("env") or {}).items():
                        step_env[k] = substitute(str(v), combo)
                    entry["run"] = script
                    entry["status"], entry["output"] = run_shell(script, workdir, step_env, errexit=True)
                else:
                    uses = step["uses"].split("@")[0]
                    # Inputs are strings: YAML's true/false as GitHub writes them.
                    args = {k: substitute(str(v).lower() if isinstance(v, bool) else str(v), combo)
                            for k, v in (step.get("with") or {}).items()}
                    entry["uses"] = uses
                    entry["status"] = 0
                    if uses == "actions/upload-artifact":
                        src = os.path.join(workdir, args["path"])
                        if os.path.exists(src):
                            copy(src, os.path.join(artifacts, args["name"]))
                        else:
                            entry["status"] = 1
                    elif uses == "actions/download-artifact":
                        for a in sorted(os.listdir(artifacts)) if os.path.isdir(artifacts) else []:
                            copy(os.path.join(artifacts, a), os.path.join(workdir, args["path"], a))
                    elif uses == "github/codeql-action/upload-sarif":
                        entry["status"] = 0 if os.path.isfile(os.path.join(workdir, args["sarif_file"])) else 1
                    elif uses == ACTION:
                        # pdfpipe's own action: its entrypoint, with the inputs and variables a
                        # runner gives a container action (the image test runs it in the image).
                        step_env = dict(env)
                        step_env.update({"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": workdir,
                                         "GITHUB_OUTPUT": os.path.join(workdir, ".github", "output-" + name)})
                        # Every input of action.yml with its default, then the step's (as GitHub does).
                        for k, v in {**ACTION_DEFAULTS, **args}.items():
                            step_env["INPUT_" + k.upper()] = v
                        entry["status"], entry["output"] = run_shell(ENTRYPOINT, workdir, step_env)
                    elif uses not in ("actions/checkout", "actions/cache", "actions/cache/restore", "actions/cache/save"):
                        raise SystemExit("unsupported action: " + uses)
                if entry["status"] != 0 and step.get("continue-on-error") is True:
                    entry["continued"] = True
                elif entry["status"] != 0:
                    ok = False
                steps_out.append(entry)
            if not ok:
                failed_jobs.add(name)
        results[name] = name not in failed_jobs
    return results, steps_out


GITLAB_KEYWORDS = {"stages", "variables", "default", "include", "workflow", "image", "services", "cache"}


def run_gitlab(flow, workdir, base_env):
    """A GitLab CI pipeline: jobs by stage (a job runs when every job of the earlier stages
    succeeded, or with `when: always`), `parallel: N` as N jobs with CI_NODE_INDEX/CI_NODE_TOTAL,
    each job's `script` in one bash -e, its `artifacts:paths` (globs) and `artifacts:reports`
    files handed to the jobs of later stages as GitLab does (by path, so parallel jobs must write
    apart), and every declared report file checked to exist. `image` is not pulled: the build under
    test is on PATH."""
    import glob
    stages = flow.get("stages") or ["build", "test", "deploy"]
    jobs = {k: v for k, v in flow.items() if k not in GITLAB_KEYWORDS and not k.startswith(".")}
    results, steps_out, failed = {}, [], False
    store = os.path.join(workdir, ".gl-artifacts")
    shutil.rmtree(store, ignore_errors=True)
    for stage in stages:
        stage_failed = False
        for name, job in jobs.items():
            if job.get("stage", "test") != stage:
                continue
            if failed and job.get("when") != "always":
                steps_out.append({"job": name, "skipped": "an earlier stage failed"})
                results[name] = False
                continue
            n = int(job.get("parallel") or 1)
            ok_all = True
            for index in range(1, n + 1):
                # Artifacts of the earlier stages, as GitLab extracts them before the job.
                if os.path.isdir(store):
                    shutil.copytree(store, workdir, dirs_exist_ok=True)
                env = dict(base_env)
                env.update({"CI": "true", "GITLAB_CI": "true", "CI_JOB_NAME": name,
                            "CI_NODE_INDEX": str(index), "CI_NODE_TOTAL": str(n)})
                for k, v in (flow.get("variables") or {}).items():
                    env[k] = str(v)
                script = "\n".join(_list(job.get("script")))
                status, output = run_shell(script, workdir, env, errexit=True)
                entry = {"job": name, "node": index, "run": script, "status": status, "output": output}
                artifacts = job.get("artifacts") or {}
                if status == 0 or artifacts.get("when") in ("always", "on_failure"):
                    kept = list(_list(artifacts.get("paths")))
                    kept += list((artifacts.get("reports") or {}).values())
                    for pattern in kept:
                        for path in glob.glob(os.path.join(workdir, pattern)):
                            rel = os.path.relpath(path, workdir)
                            copy(path, os.path.join(store, rel if os.path.isdir(path) else os.path.dirname(rel)))
                    for kind, report in (artifacts.get("reports") or {}).items():
                        if not os.path.isfile(os.path.join(workdir, report)):
                            entry["status"] = 1
                            entry["output"] += "\nreport %s missing: %s" % (kind, report)
                if entry["status"] != 0 and not job.get("allow_failure"):
                    ok_all = False
                steps_out.append(entry)
            results[name] = ok_all
            if not ok_all:
                stage_failed = True
        failed = failed or stage_failed
    return results, steps_out


def _list(v):
    return [] if v is None else (v if isinstance(v, list) else [v])


def main():
    args = sys.argv[1:]
    readme, workdir = args[0], os.path.abspath(args[1])
    bindir, section, only = None, "Using it in CI", []
    i = 2
    while i < len(args):
        if args[i] == "--bin":
            bindir = os.path.abspath(args[i + 1]); i += 2
        elif args[i] == "--section":
            section = args[i + 1]; i += 2
        elif args[i] == "--only":
            only.append(int(args[i + 1])); i += 2
        else:
            raise SystemExit("unknown argument " + args[i])
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    out = []
    for n, (kind, text) in enumerate(blocks(readme, section)):
        if only and n not in only:
            continue
        first = text.strip().splitlines()[0]
        title = first.lstrip("# ").strip() if first.startswith("#") else first
        if kind == "sh":
            steps = []
            for line in text.splitlines():
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                status, output = run_shell(line, workdir, env)
                steps.append({"run": line, "status": status, "output": output})
            out.append({"block": n, "kind": "sh", "title": title, "steps": steps})
        else:
            flow = yaml.safe_load(text)
            if "jobs" in flow:
                jobs, steps = run_workflow(flow, workdir, env)
            else:
                jobs, steps = run_gitlab(flow, workdir, env)
            out.append({"block": n, "kind": "workflow", "title": title, "jobs": jobs, "steps": steps})
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
