#!/usr/bin/env python3
"""Checks, without Docker, that the image holds every file of the repository.

The image's suite reads files of the repository at run time (README.md and the
documentation catalog for the examples test, the sources and tests for the
conventions test). A file left out of the build context by .dockerignore, or not
copied by the Dockerfile, makes `docker run` fail while `swift test` passes here.
This script computes what the Dockerfile's context copies reach the image:

  1. the build context: the repository's committed files (`git ls-files`) minus
     those .dockerignore excludes, with Docker's rules (patterns relative to the
     root, `*`, `?`, `[...]`, `**`, `!` exceptions, the last match wins, and a
     pattern that matches a folder excludes everything under it);
  2. the files of that context that the Dockerfile's `COPY` lines without
     `--from` copy into the stages the default image is built from (`COPY . .`
     copies all of it);

and fails when a committed file does not reach the image, naming first the files
that a test refers to by a path literal (a string of Tests/ that names a file or
folder of the repository, such as "README.md" or "Sources/GRDBLite/GRDBLite.docc").

  Scripts/docker-context.py            check, print one line, exit 1 on a missing file
  Scripts/docker-context.py --list     also print the image's files
"""

import os
import re
import subprocess
import sys


def dockerignore_patterns(root):
    """The (negated, regex) pairs of .dockerignore, in order."""
    path = os.path.join(root, ".dockerignore")
    patterns = []
    if not os.path.exists(path):
        return patterns
    with open(path, encoding="utf-8") as file:
        for line in file:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            negated = line.startswith("!")
            if negated:
                line = line[1:].strip()
            line = os.path.normpath(line).lstrip("/")
            if line in ("", "."):
                continue
            patterns.append((negated, re.compile(pattern_regex(line))))
    return patterns


def pattern_regex(pattern):
    """Docker's pattern syntax (Go's filepath.Match plus `**`) as a regex."""
    out = "^"
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "*":
            if pattern[i : i + 2] == "**":
                i += 2
                if pattern[i : i + 1] == "/":
                    # `**/` matches zero or more whole folders.
                    out += "(?:.*/)?"
                    i += 1
                else:
                    out += ".*"
                continue
            out += "[^/]*"
        elif char == "?":
            out += "[^/]"
        elif char == "[":
            end = pattern.find("]", i + 1)
            if end < 0:
                out += re.escape(char)
            else:
                body = pattern[i + 1 : end]
                if body.startswith("^") or body.startswith("!"):
                    body = "^" + body[1:]
                out += "[" + body.replace("\\", "\\\\") + "]"
                i = end
        elif char == "\\" and i + 1 < len(pattern):
            i += 1
            out += re.escape(pattern[i])
        else:
            out += re.escape(char)
        i += 1
    return out + "$"


def excluded(path, patterns):
    """Whether .dockerignore leaves `path` out: a pattern matches the path or a parent."""
    parts = path.split("/")
    candidates = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    result = False
    for negated, regex in patterns:
        if any(regex.match(candidate) for candidate in candidates):
            result = not negated
    return result


def copied_sources(root):
    """The context paths that `COPY` lines without `--from` copy, in the stages the
    default (last) image is built from."""
    stages = []  # (name, base, [sources])
    with open(os.path.join(root, "Dockerfile"), encoding="utf-8") as file:
        text = re.sub(r"\\\n", " ", file.read())
    for line in text.splitlines():
        words = line.strip().split()
        if not words or words[0].startswith("#"):
            continue
        instruction = words[0].upper()
        if instruction == "FROM":
            rest = [w for w in words[1:] if not w.startswith("--")]
            name = rest[2] if len(rest) >= 3 and rest[1].upper() == "AS" else None
            stages.append((name, rest[0], []))
        elif instruction in ("COPY", "ADD") and stages:
            args = words[1:]
            if any(a.startswith("--from") for a in args):
                continue
            args = [a for a in args if not a.startswith("--")]
            stages[-1][2].extend(args[:-1])
    # The last stage and the stages it derives from by name.
    chain = []
    index = len(stages) - 1
    while index >= 0:
        chain.append(stages[index])
        base = stages[index][1]
        index = next((i for i, s in enumerate(stages[:index]) if s[0] == base), -1)
    return [source for stage in chain for source in stage[2]]


def reaches(path, sources):
    for source in sources:
        source = os.path.normpath(source).lstrip("/")
        if source == "." or path == source or path.startswith(source + "/"):
            return True
    return False


def referenced_by_tests(root, files):
    """Repository paths named by a string literal of Tests/, with the test file."""
    folders = {os.path.dirname(f) for f in files}
    folders |= {"/".join(f.split("/")[:n]) for f in files for n in range(1, f.count("/") + 1)}
    references = {}
    for file in files:
        if not (file.startswith("Tests/") and file.endswith(".swift")):
            continue
        with open(os.path.join(root, file), encoding="utf-8") as handle:
            for literal in re.findall(r'"([A-Za-z0-9_.][A-Za-z0-9_./+-]*)"', handle.read()):
                literal = literal.rstrip("/")
                if literal in files or literal in folders:
                    references.setdefault(literal, file)
    return references


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    listing = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, text=True)
    if listing.returncode != 0 or not os.path.exists(os.path.join(root, ".git")):
        # Inside the image, which has no history: its files are what it holds.
        print("docker-context: not a git checkout (the image itself?): nothing to check")
        return 0
    files = listing.stdout.split("\0")
    files = sorted(f for f in files if f and os.path.exists(os.path.join(root, f)))
    patterns = dockerignore_patterns(root)
    sources = copied_sources(root)
    image = [f for f in files if not excluded(f, patterns) and reaches(f, sources)]
    missing = sorted(set(files) - set(image))
    if "--list" in sys.argv:
        print("\n".join(image))

    failures = []
    for literal, test in sorted(referenced_by_tests(root, files).items()):
        lost = [f for f in missing if f == literal or f.startswith(literal + "/")]
        if lost:
            failures.append(f'{test} reads "{literal}", which is not in the image: {", ".join(lost[:5])}')
    reported = {f for failure in failures for f in missing if f in failure}
    for file in missing:
        if file not in reported:
            failures.append(f"{file} is committed but not in the image")
    for failure in failures:
        print(f"docker-context: {failure}", file=sys.stderr)
    if failures:
        print(
            f"docker-context: {len(missing)} of {len(files)} committed files miss the image "
            "(check .dockerignore and the Dockerfile's COPY lines)",
            file=sys.stderr,
        )
        return 1
    print(f"docker-context: all {len(files)} committed files reach the image")
    return 0


if __name__ == "__main__":
    sys.exit(main())
