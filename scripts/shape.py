#!/usr/bin/env python3
"""The codebase's shape in numbers (#48): what stands between a newcomer and a first change.

    python3 scripts/shape.py          # the counts, one a line
    python3 scripts/shape.py --list   # and what each count is made of
    python3 scripts/shape.py --api    # the public API of the library products (docs/api-surface.txt)

Counted over Sources/ (Swift only; comments and string literals left out where it matters):
  string flag reads     a command-line flag read by its spelling (`values["--out"]`, `flags.contains("--x")`)
  raw system calls      C library file/process calls outside Sources/SystemIO (and outside the C targets)
  FileManager calls     `FileManager` uses outside Sources/SystemIO
  public declarations   declarations marked `public` or `open`
  functions 50+ lines   `func`/`init` from its line to its closing brace (as CodeShapeTests counts)
  rules without sample  rules (Rule("…")) with no `sample:` in their declaration
  Stage requirements    what a type conforming to `Stage` must have (#64: descriptor, init, run)
  clock and environment reads
                        `Date()`, `Date.now`, `DispatchTime.now()`, `ProcessInfo…environment`
                        outside Sources/SystemIO (its `Clock` and `Environment` are the one door)
  files 400+ lines      Swift files of 400 lines or more; `largest file` names the largest
  detached doc comments a `///` comment followed by no declaration (a blank line, a closing brace,
                        a plain comment): what a split left behind. A doc comment moved onto the
                        wrong function is not counted (#64 fixed seven by reading)
  unsafe globals        `nonisolated(unsafe)` declarations
"""

import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SOURCES = os.path.join(ROOT, "Sources")

# The C library's calls on files, descriptors, processes and the environment that a system layer owns.
SYSCALLS = """open openat close read write pread pwrite lseek stat lstat fstat fstatat statvfs access
rename renameat renameat2 unlink unlinkat mkdir mkdtemp mkstemp rmdir opendir readdir closedir fdopendir
symlink readlink realpath chmod fchmod ftruncate fsync fdatasync fcntl ioctl dup dup2 pipe pipe2 poll
mmap munmap madvise posix_spawn posix_spawnp fork execv execve waitpid kill killpg getpid getppid setsid
setpgid sigaction signal sigprocmask pthread_sigmask setrlimit getrlimit prctl getenv setenv unsetenv
chdir getcwd utimes futimens utimensat flock link linkat isatty sysconf nanosleep usleep""".split()
CALL = re.compile(r"(?<![\w.])(?<!func )(?:Glibc\.)?(" + "|".join(SYSCALLS) + r")\((?!\))")
STRING = re.compile(r'"(?:\\.|[^"\\])*"')
PUBLIC = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:final|static|class|override|nonisolated|mutating|indirect|convenience|required)\s+)*(?:public|open(?=\s+(?:class|func|var|let|subscript|init)))(?:\(set\))?\s"
)
DECL = re.compile(
    r"^\s*(?:@[A-Za-z]+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|package|static|mutating|override|final|nonisolated)\s+)*(?:func\s|init[?(<])"
)
CLOCK_OR_ENV = re.compile(r"\bDate\(\)|\bDate\.now\b|\bDispatchTime\.now\(\)|processInfo\.environment\b")
FLAG_READ = re.compile(r'(?:values|flags)(?:\[|\.contains\()\s*"--|\.(?:value|flag)\(\s*"--')


# A document's section set or read by a string (#48): `job.sections["text"]`, `sections["linkSummary"]`.
SECTION_WRITE = re.compile(r'\bsections\["')


def swift_files():
    for base, _, names in os.walk(SOURCES):
        for n in sorted(names):
            if n.endswith(".swift"):
                yield os.path.join(base, n)


RAW_STRING = re.compile(r'#"(?:.*?)"#')


def code_of(line):
    """The line without string literals (raw ones, `#"…"#`, first: they hold quotes) and its `//`
    comment."""
    return STRING.sub('""', RAW_STRING.sub('""', line)).split("//", 1)[0]


API_MODULES = ["PDFPipeCore", "PDFPipeStages", "PDFPipeWeb"]
TYPE_DECL = re.compile(r"\b(struct|class|enum|protocol|extension|actor)\s+([A-Za-z_][\w.]*)")


def api_surface():
    """Each public declaration of the library products, as `Module Type.Member: declaration`: the
    enclosing types by name (so moving code between files changes nothing), the declaration joined
    onto one line up to its body or initial value, sorted."""
    out = []
    for module in API_MODULES:
        for base, _, names in os.walk(os.path.join(SOURCES, module)):
            for n in sorted(names):
                if n.endswith(".swift"):
                    out += declarations(module, open(os.path.join(base, n), encoding="utf-8").read().split("\n"))
    return sorted(set(out))


def declarations(module, lines):
    found, stack, depth, pending = [], [], 0, None
    i = 0
    while i < len(lines):
        code = code_of(lines[i])
        if PUBLIC.match(lines[i]):
            text, j, parens = "", i, 0
            while j < len(lines):
                part = code_of(lines[j]).strip()
                text += (" " if text else "") + part
                parens += part.count("(") + part.count("[") - part.count(")") - part.count("]")
                if parens <= 0 and not part.endswith(("->", ",", "(")) and not (j + 1 < len(lines) and code_of(lines[j + 1]).strip().startswith(("->", "where", "throws"))):
                    break
                j += 1
            text = head_of(text)
            owner = ".".join(stack_names(stack)) or "(top level)"
            found.append(f"{module} {owner}: {text}")
        m = TYPE_DECL.search(code)
        if m and m.group(2) not in ("func", "var", "let"):
            pending = m.group(2)
        for c in code:
            if c == "{":
                depth += 1
                stack.append((depth, pending))
                pending = None
            elif c == "}":
                if stack and stack[-1][0] == depth:
                    stack.pop()
                depth -= 1
        i += 1
    return found


def head_of(text):
    """A declaration up to its body (`{`) or initial value (` = `) outside parentheses."""
    depth = 0
    for k, c in enumerate(text):
        if c in "([<":
            depth += 1
        elif c in ")]>" and not (c == ">" and text[k - 1] == "-"):
            depth -= 1
        elif depth == 0 and (c == "{" or text.startswith(" = ", k)):
            return text[:k].strip()
    return text.strip()


def stack_names(stack):
    return [name for _, name in stack if name]


def main():
    if "--api" in sys.argv:
        print("\n".join(api_surface()))
        return
    listing = "--list" in sys.argv
    found = {k: [] for k in ["string flag reads", "string section keys", "raw system calls", "FileManager calls",
                             "public declarations", "functions 50+ lines", "rules without sample",
                             "Stage requirements", "clock and environment reads", "files 400+ lines",
                             "detached doc comments", "unsafe globals"]}
    largest = (0, "")
    # A call to a Swift function of the same module (the CLI's own `write(_:formats:to:)`) is not
    # the C library's.
    own_by_module = {}
    for path in swift_files():
        module = os.path.relpath(path, ROOT).split("/")[1]
        text = open(path, encoding="utf-8").read()
        own_by_module.setdefault(module, set()).update(m.group(1) for m in re.finditer(r"func (\w+)\(", text))
    for path in swift_files():
        rel = os.path.relpath(path, ROOT)
        in_system = rel.startswith("Sources/SystemIO/")
        lines = open(path, encoding="utf-8").read().split("\n")
        own = own_by_module.get(rel.split("/")[1], set())
        length = len(lines) - (1 if lines and lines[-1] == "" else 0)
        if length >= 400:
            found["files 400+ lines"].append(f"{rel} ({length} lines)")
        largest = max(largest, (length, rel))
        if rel == "Sources/PDFPipeCore/Stage/Stage.swift":
            found["Stage requirements"] += stage_requirements(lines, rel)
        for i, line in enumerate(lines):
            where = f"{rel}:{i + 1}"
            code = code_of(line)
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            if line.strip().startswith("///") and (
                nxt == "" or nxt == "}" or (nxt.startswith("//") and not nxt.startswith("///"))
            ):
                found["detached doc comments"].append(where)
            if "nonisolated(unsafe)" in code:
                found["unsafe globals"].append(where)
            if FLAG_READ.search(line):
                found["string flag reads"].append(where)
            if SECTION_WRITE.search(code) and not rel.startswith("Sources/PDFPipeCore/Report/Sections.swift"):
                found["string section keys"].append(where)
            if not in_system:
                for m in CALL.finditer(code):
                    if m.group(1) in own:
                        continue  # a Swift function of this file's types, not the C library's
                    found["raw system calls"].append(f"{where} {m.group(1)}")
                if "FileManager" in code:
                    found["FileManager calls"].append(where)
                if CLOCK_OR_ENV.search(code) and not line.lstrip().startswith("///"):
                    found["clock and environment reads"].append(where)
            if PUBLIC.match(line):
                found["public declarations"].append(where)
            if re.search(r'\bRule\(\s*$|\bRule\(\s*"[a-z]+\.', line) and "static let" in "".join(lines[max(0, i - 1):i + 1]):
                decl = []
                depth = 0
                for j in range(i, min(len(lines), i + 40)):
                    decl.append(lines[j])
                    depth += code_of(lines[j]).count("(") - code_of(lines[j]).count(")")
                    if depth <= 0 and j > i or (depth <= 0 and "Rule(" in lines[j] and lines[j].rstrip().endswith(")")):
                        break
                if "sample:" not in "\n".join(decl):
                    found["rules without sample"].append(where)
            if DECL.match(line):
                depth, opened, end = 0, False, i
                while end < len(lines):
                    done = False
                    for c in code_of(lines[end]):
                        if c == "{":
                            depth += 1
                            opened = True
                        elif c == "}":
                            depth -= 1
                        if opened and depth == 0:
                            done = True
                            break
                    if done:
                        break
                    end += 1
                if end - i + 1 >= 50:
                    found["functions 50+ lines"].append(f"{where} ({end - i + 1} lines)")
    for name, items in found.items():
        by_module = {}
        for it in items:
            module = it.split("/")[1]
            by_module[module] = by_module.get(module, 0) + 1
        modules = ", ".join(f"{m} {n}" for m, n in sorted(by_module.items()))
        print(f"{name}: {len(items)}" + (f" ({modules})" if modules else ""))
        if listing:
            for it in items:
                print(f"  {it}")
    print(f"largest file: {largest[0]} lines ({largest[1]})")


def stage_requirements(lines, rel):
    """The requirements declared in `public protocol Stage` (associated types aside)."""
    out, inside, depth = [], False, 0
    for i, line in enumerate(lines):
        code = code_of(line)
        if not inside:
            if re.match(r"\s*public protocol Stage\b", code):
                inside, depth = True, code.count("{") - code.count("}")
            continue
        if depth == 1 and re.match(r"\s*(?:static\s+)?(?:func|init|var|subscript)\b", code):
            out.append(f"{rel}:{i + 1} {code.strip()}")
        depth += code.count("{") - code.count("}")
        if depth <= 0:
            break
    return out


if __name__ == "__main__":
    main()
