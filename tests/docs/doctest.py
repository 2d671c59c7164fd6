#!/usr/bin/env python3
"""doctest.py BUILD [--update] [PAGE...] - runs every command shown in README.md
and docs/ and compares its output with what the page shows.

In a code block (fenced, or indented by four spaces), a line `$ CMD` is a
command (a trailing backslash continues it on the next line); the lines after
it, up to the next `$ ` line or the end of the block, are its output (standard
output and standard error together).  A line `...` alone matches any number of
lines: the page abbreviates there.  HTML comments just before a block steer it:

    <!-- doctest: skip WHY -->      the block is not run (WHY says why)
    <!-- doctest: file NAME -->     the block is the file NAME, written into the
                                    page's working folder before later commands

Each page runs in a fresh temporary folder in which the repository's top-level
folders appear (examples/, bench/, ...), with BUILD first on the PATH, so
`lego ...` is the tool just built.  --update rewrites the pages' outputs from
what the commands print (not where a page abbreviates): review the diff.

A command that names a build folder (`build/lego`, `build-san/...`, BUILD's
own name) fails without running: it would pass only in the run whose build
that folder is (the plain one, not the sanitizer's), so it is refused in
every run; a page writes `lego ...`.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DIRECTIVE = re.compile(r"^<!--\s*doctest:\s*(skip|file)\b\s*(.*?)\s*-->\s*$")
TIMEOUT_S = 120


def build_folder_pattern(build):
    """A path component that is a build folder: build, build-NAME (the
    Makefile's and the scripts' folders) or BUILD's own name, as a whole
    word (not `rebuild/`, `--build`), used as a folder or an argument."""
    names = r"build(?:-[\w-]+)?"
    own = os.path.basename(build.rstrip(os.sep))
    if own:
        names += "|" + re.escape(own)
    return re.compile(r"(?<![\w.-])(%s)(?=/|[\s'\";|&)]|$)" % names)


def pages(args):
    if args:
        return [os.path.abspath(a) for a in args]
    found = [os.path.join(ROOT, "README.md")]
    for top, dirs, files in os.walk(os.path.join(ROOT, "docs")):
        dirs.sort()
        found += [os.path.join(top, f) for f in sorted(files) if f.endswith(".md")]
    return found


def blocks(lines):
    """Yields (directive, first_line_index, body_lines) for each code block;
    body lines are indices into lines, their text without the indentation."""
    i, n = 0, len(lines)
    directive = None
    while i < n:
        line = lines[i]
        m = DIRECTIVE.match(line.strip())
        if m:
            directive = (m.group(1), m.group(2))
            i += 1
            continue
        fence = re.match(r"^(\s*)(```+|~~~+)", line)
        if fence:
            indent, mark = len(fence.group(1)), fence.group(2)
            body, i = [], i + 1
            while i < n and not lines[i].strip().startswith(mark):
                body.append((i, lines[i][indent:]))
                i += 1
            yield directive, body
            directive, i = None, i + 1
            continue
        prev_blank = i == 0 or not lines[i - 1].strip() or DIRECTIVE.match(lines[i - 1].strip())
        if line.startswith("    ") and prev_blank:
            body = []
            while i < n and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append((i, lines[i][4:]))
                i += 1
            while body and not body[-1][1].strip():
                body.pop()
            yield directive, body
            directive = None
            continue
        if line.strip():
            directive = None
        i += 1


def commands(body):
    """Splits a block into (command, index of its last line, output line
    indices, expected lines)."""
    out, k = [], 0
    while k < len(body):
        _, text = body[k]
        if not text.startswith("$ "):
            k += 1
            continue
        cmd = text[2:]
        while cmd.endswith("\\") and k + 1 < len(body):
            k += 1
            cmd = cmd + "\n" + body[k][1]
        cmd_end = body[k][0]
        k += 1
        first = k
        while k < len(body) and not body[k][1].startswith("$ "):
            k += 1
        expect = [t.rstrip() for _, t in body[first:k]]
        idx = [j for j, _ in body[first:k]]
        while expect and not expect[-1]:
            expect.pop()
            idx.pop()
        out.append((cmd, cmd_end, idx, expect))
    return out


def matches(expect, got):
    """Line match where a line `...` stands for any run of lines."""
    if not expect:
        return not got
    if expect[0] == "...":
        return any(matches(expect[1:], got[j:]) for j in range(len(got) + 1))
    return bool(got) and expect[0] == got[0] and matches(expect[1:], got[1:])


def workdir():
    d = tempfile.mkdtemp(prefix="lego-doctest-")
    for name in os.listdir(ROOT):
        if not name.startswith(".") and os.path.isdir(os.path.join(ROOT, name)):
            os.symlink(os.path.join(ROOT, name), os.path.join(d, name))
    return d


def run(cmd, cwd, env):
    try:
        p = subprocess.run(["sh", "-c", cmd], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=TIMEOUT_S)
        text = p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        text = "doctest: timed out after %d s" % TIMEOUT_S
    got = [l.rstrip() for l in text.split("\n")]
    while got and not got[-1]:
        got.pop()
    return got


def check_page(path, build, update, tally):
    refused = build_folder_pattern(build)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    rel = os.path.relpath(path, ROOT)
    cwd = workdir()
    env = dict(os.environ, PATH=build + os.pathsep + os.environ.get("PATH", ""),
               LC_ALL="C", COLUMNS="100")
    edits = {}
    try:
        for directive, body in blocks(lines):
            if directive and directive[0] == "skip":
                continue
            if directive and directive[0] == "file":
                with open(os.path.join(cwd, directive[1]), "w") as f:
                    f.write("\n".join(t for _, t in body) + "\n")
                continue
            for cmd, cmd_end, idx, expect in commands(body):
                named = refused.search(cmd)
                if named:
                    tally[1] += 1
                    print("%s:%d: FAIL $ %s\n  names the build folder '%s': "
                          "write `lego ...` (BUILD is first on the PATH)"
                          % (rel, cmd_end + 1, cmd.replace("\n", " "),
                             named.group(1)))
                    continue
                got = run(cmd, cwd, env)
                if matches(expect, got):
                    tally[0] += 1
                    continue
                if update and "..." not in expect:
                    span = (idx[0], idx[-1]) if idx else (cmd_end + 1, cmd_end)
                    edits[span] = (lines[cmd_end], got)
                    tally[0] += 1
                    continue
                tally[1] += 1
                line_no = cmd_end + 1
                print("%s:%d: FAIL $ %s" % (rel, line_no, cmd.replace("\n", " ")))
                print("  expected:\n" + "".join("    %s\n" % l for l in expect), end="")
                print("  got:\n" + "".join("    %s\n" % l for l in got), end="")
    finally:
        shutil.rmtree(cwd, ignore_errors=True)
    if edits:
        for (a, b), (cmd_line, got) in sorted(edits.items(), reverse=True):
            indent = re.match(r"^\s*", cmd_line).group(0)
            lines[a:b + 1] = [(indent + g) if g else "" for g in got]
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        print("%s: updated %d outputs" % (rel, len(edits)))


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    build = os.path.abspath(argv[1])
    rest = argv[2:]
    update = "--update" in rest
    rest = [a for a in rest if a != "--update"]
    tally = [0, 0]
    for page in pages(rest):
        check_page(page, build, update, tally)
    print("docs: %d passed, %d failed" % (tally[0], tally[1]))
    return 1 if tally[1] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
