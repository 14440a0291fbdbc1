#!/usr/bin/env python3
"""GRDB 7.10's own test suite, run against GRDBLite: the compatibility report.

Run it through Scripts/grdb-compat.sh, whose header documents the options.

Steps:
1. GRDB 7.10.0's sources come from a SwiftPM checkout (a scratch package
   that depends on it, resolved from the package mirror), never from this
   repository.
2. A scratch test package depends on GRDBLite by path. Its one test target,
   `GRDBTests` (GRDB's name, so that test ids match), holds GRDB's test
   files with `import GRDB` rewritten to `import GRDBLite`, the base class of
   Tests/GRDBCompat instead of GRDB's `GRDBTestCase.swift`, and the optional
   support files of Tests/GRDBCompat/Optional that compile.
3. Every file is type-checked against the built GRDBLite module in one
   compiler run; files with errors are set aside (their tests count as "not
   compiled", with their first error) and the rest checked again until none
   fails; then the rest is built for real (errors found only then set files
   aside too). `--check` skips the type-checks: it applies what the last
   `--record` found (Tests/GRDBCompat/compile-plan.tsv) and builds.
4. The tests run one class per process, two processes at a time. A crash or
   a hang fails the running test only: the rest of its class runs again in
   a new process. A test that fails is tried once more alone.
5. Only the tests that pass on GRDB itself on Linux count: `--reference`
   builds GRDB's own package from the checkout, runs its suite the same way
   and writes the list (Tests/GRDBCompat/reference.tsv, committed).
"""

import argparse
import datetime
import fnmatch
import math
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

GRDB_URL = "https://github.com/groue/GRDB.swift"
GRDB_VERSION = "7.10.0"
MODULE = "GRDBTests"

# GRDB's test target settings on Linux (its Package.swift): the same
# conditional compilation, so that the same tests are compiled.
DEFINES = ["SQLITE_ENABLE_FTS5", "SQLITE_ENABLE_SNAPSHOT", "SQLITE_DISABLE_SNAPSHOT"]
UPCOMING_FEATURES = ["InferSendableFromCaptures", "GlobalActorIsolatedTypesUsability"]
RESOURCES = ["Betty.jpeg", "InflectionsTests.json", "Issue1383.sqlite", "db.SQLCipher3"]

AREAS = [
    "core", "records", "query and associations", "observation", "schema and migrations",
    "pool", "value observation", "FTS", "JSON", "backup and dump", "other",
]

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPAT = os.path.join(REPO, "Tests", "GRDBCompat")
# What --record found does not compile (files set aside, tests cut out),
# which --check applies at once instead of type-checking every file first.
COMPILE_PLAN = os.path.join(COMPAT, "compile-plan.tsv")
README = os.path.join(REPO, "README.md")
TABLE_BEGIN = "<!-- grdb-compat-table: written by Scripts/grdb-compat.sh --record -->"
TABLE_END = "<!-- /grdb-compat-table -->"
DIFFERENCES = os.path.join(REPO, "Sources", "GRDBLite", "GRDBLite.docc", "DifferencesFromGRDB.md")
FIGURES_BEGIN = "<!-- grdb-compat-figures: written by Scripts/grdb-compat.sh --record -->"
FIGURES_END = "<!-- /grdb-compat-figures -->"
FAILURES_BEGIN = "<!-- grdb-compat-failures: written by Scripts/grdb-compat.sh --record -->"
FAILURES_END = "<!-- /grdb-compat-failures -->"

ERROR_LINE = re.compile(r"^(/[^:\n]+\.swift):(\d+):(\d+): error: (.*)$")
TEST_STARTED = re.compile(r"^Test Case '([^']+)\.([^'.]+)' started")
TEST_ENDED = re.compile(r"^Test Case '([^']+)\.([^'.]+)' (passed|failed|skipped) \(([0-9.]+) seconds\)")
TEST_FAILURE = re.compile(r"^(.*?):(\d+): error: ([^ ]+)\.([^ .]+) : (.*)$")
TEST_SKIPPED = re.compile(r"^(.*?):(\d+): ([^ ]+)\.([^ .]+) : (Test skipped.*)$")


STARTED = time.time()


def log(message):
    elapsed = int(time.time() - STARTED)
    print(f"grdb-compat [{elapsed // 60}:{elapsed % 60:02d}]: {message}", file=sys.stderr, flush=True)


def die(message):
    log(message)
    sys.exit(2)


def one_line(text, limit=400):
    text = " ".join(text.replace("\t", " ").split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def run(command, cwd, logfile, env=None):
    """Runs a command, its output into logfile; returns its exit status."""
    with open(logfile, "w") as out:
        return subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env).returncode


def write_if_changed(path, content):
    """Writes a file only when its content changes, so that incremental
    builds of the scratch package stay incremental."""
    data = content.encode() if isinstance(content, str) else content
    try:
        with open(path, "rb") as existing:
            if existing.read() == data:
                return
    except FileNotFoundError:
        pass
    with open(path, "wb") as out:
        out.write(data)


# MARK: - GRDB's sources


def grdb_checkout(scratch):
    """A checkout of GRDB 7.10.0: one SwiftPM already made (the benchmark's),
    or one resolved in a scratch package."""
    candidates = [
        os.environ.get("GRDB_CHECKOUT", ""),
        os.path.join(REPO, "Benchmarks", ".build", "checkouts", "GRDB.swift"),
        os.path.join(REPO, ".build", "checkouts", "GRDB.swift"),
    ]
    for candidate in candidates:
        if candidate and os.path.isfile(os.path.join(candidate, "Tests", "GRDBTests", "GRDBTestCase.swift")):
            tag = subprocess.run(["git", "-C", candidate, "describe", "--tags", "--exact-match"],
                                 capture_output=True, text=True).stdout.strip()
            if tag == GRDB_VERSION:
                return candidate
    source = os.path.join(scratch, "grdb-source")
    os.makedirs(source, exist_ok=True)
    write_if_changed(os.path.join(source, "Package.swift"), f"""// swift-tools-version:6.1
// Generated by Scripts/grdb-compat.py: resolves GRDB's sources, builds nothing.
import PackageDescription

let package = Package(
    name: "GRDBSource",
    dependencies: [.package(url: "{GRDB_URL}", exact: "{GRDB_VERSION}")],
    targets: [])
""")
    logfile = os.path.join(scratch, "grdb-source.log")
    if run(["swift", "package", "resolve"], source, logfile) != 0:
        die(f"cannot resolve GRDB {GRDB_VERSION}: see {logfile}")
    checkout = os.path.join(source, ".build", "checkouts", "GRDB.swift")
    if not os.path.isdir(os.path.join(checkout, "Tests", "GRDBTests")):
        die(f"no Tests/GRDBTests in {checkout}")
    return checkout


def test_files(checkout):
    """GRDB's Swift test files, by name."""
    folder = os.path.join(checkout, "Tests", "GRDBTests")
    return {name: os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".swift")}


def tests_by_file(files):
    """(class, test) -> file, from the sources: the file that declares the
    class and a `func test...()` of that name."""
    declared = {}
    functions = {}
    for name, path in files.items():
        with open(path, encoding="utf-8") as source:
            text = source.read()
        for match in re.finditer(r"\bclass\s+(\w+)\b", text):
            declared.setdefault(match.group(1), []).append(name)
        functions[name] = set(re.findall(r"func\s+(test\w*)\s*\(\s*\)", text))

    def locate(class_name, test_name):
        found = [f for f in declared.get(class_name, []) if test_name in functions[f]]
        if len(found) == 1:
            return found[0]
        candidates = [f for f in functions if test_name in functions[f]]
        return candidates[0] if len(candidates) == 1 else "?"

    return locate


def read_areas():
    areas = {}
    with open(os.path.join(COMPAT, "areas.tsv"), encoding="utf-8") as source:
        for line in source:
            if line.startswith("#") or not line.strip():
                continue
            name, area = line.rstrip("\n").split("\t")
            if area not in AREAS:
                die(f"areas.tsv: unknown area {area!r} for {name}")
            areas[name] = area
    return areas


def rewrite_imports(text, library):
    """`import GRDB` becomes `import GRDBLite`: tests see the library as a
    user does. `@testable import GRDB` becomes `@_spi(GRDBLite) import
    GRDBLite`: where GRDB's tests reach into GRDB's internals (such as
    `DatabaseRegion(table:)`), they see GRDBLite's opt-in extensions, never
    its internals. GRDB's C module becomes ours.
    With `--on-grdb`, the library is GRDB, still without `@testable`, and
    our support files import it instead of GRDBLite."""
    if library == "GRDB":
        text = re.sub(r"^(\s*)(@testable\s+)?import\s+(GRDB|GRDBLite)\b(?!SQLite)", r"\1import GRDB", text, flags=re.M)
        return re.sub(r"^(\s*)import\s+CSQLite\b", r"\1import GRDBSQLite", text, flags=re.M)
    text = re.sub(r"^(\s*)@testable\s+import\s+GRDB\b(?!SQLite)", r"\1@_spi(GRDBLite) import GRDBLite",
                  text, flags=re.M)
    text = re.sub(r"^(\s*)import\s+GRDB\b(?!SQLite)", r"\1import GRDBLite", text, flags=re.M)
    return re.sub(r"^(\s*)import\s+GRDBSQLite\b", r"\1import CSQLite", text, flags=re.M)


# MARK: - Test functions in Swift sources


def code_mask(text):
    """For each character of Swift source, whether it is code (1) or part of
    a comment or a string literal (0). String interpolations count as part
    of their string."""
    n = len(text)
    mask = bytearray(b"\x01") * n

    def skip_comment(i):
        if text.startswith("//", i):
            end = text.find("\n", i)
            return n if end < 0 else end
        depth, i = 1, i + 2
        while i < n and depth:
            if text.startswith("/*", i):
                depth, i = depth + 1, i + 2
            elif text.startswith("*/", i):
                depth, i = depth - 1, i + 2
            else:
                i += 1
        return i

    def skip_string(i):
        hashes = 0
        while i < n and text[i] == "#":
            hashes, i = hashes + 1, i + 1
        multiline = text.startswith('"""', i)
        i += 3 if multiline else 1
        close = ('"""' if multiline else '"') + "#" * hashes
        escape = "\\" + "#" * hashes
        while i < n:
            if text.startswith(escape, i):
                i += len(escape)
                if i < n and text[i] == "(":
                    i = skip_interpolation(i + 1)
                else:
                    i += 1
            elif text.startswith(close, i):
                return i + len(close)
            elif text[i] == "\n" and not multiline:
                return i
            else:
                i += 1
        return n

    def is_string_start(i):
        j = i
        while j < n and text[j] == "#":
            j += 1
        return j < n and text[j] == '"'

    def skip_interpolation(i):
        depth = 1
        while i < n:
            if text.startswith("//", i) or text.startswith("/*", i):
                i = skip_comment(i)
            elif is_string_start(i):
                i = skip_string(i)
            else:
                if text[i] == "(":
                    depth += 1
                elif text[i] == ")":
                    depth -= 1
                    if depth == 0:
                        return i + 1
                i += 1
        return n

    i = 0
    while i < n:
        if text.startswith("//", i) or text.startswith("/*", i):
            end = skip_comment(i)
        elif is_string_start(i):
            end = skip_string(i)
        else:
            i += 1
            continue
        mask[i:end] = bytes(end - i)
        i = end
    return mask


TEST_FUNCTION = re.compile(r"\bfunc\s+(test\w*)\s*\(\s*\)")
TYPE_DECLARATION = re.compile(r"\b(?:class|extension)\s+(\w+)")


def test_functions(text):
    """The test methods of the file's top-level classes and extensions:
    [(class, test, first line, last line)], lines counted from 1, the
    attribute lines above a method included."""
    mask = code_mask(text)
    depth_at = [0] * (len(text) + 1)
    depth = 0
    for index, char in enumerate(text):
        depth_at[index] = depth
        if mask[index]:
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line_of(offset):
        low, high = 0, len(line_starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if line_starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return low + 1

    owners = [(m.start(), m.group(1)) for m in TYPE_DECLARATION.finditer(text)
              if mask[m.start()] and depth_at[m.start()] == 0]
    functions = []
    for match in TEST_FUNCTION.finditer(text):
        start = match.start()
        if not mask[start] or depth_at[start] != 1:
            continue
        owner = [name for offset, name in owners if offset < start]
        brace = match.end()
        while brace < len(text) and not (mask[brace] and text[brace] == "{"):
            brace += 1
        level, end = 0, brace
        while end < len(text):
            if mask[end]:
                if text[end] == "{":
                    level += 1
                elif text[end] == "}":
                    level -= 1
                    if level == 0:
                        break
            end += 1
        first = line_of(start)
        lines = text.split("\n")
        while first > 1 and lines[first - 2].strip().startswith("@"):
            first -= 1
        functions.append((owner[-1] if owner else "?", match.group(1), first, line_of(end)))
    return functions


def without_lines(text, spans):
    """The text with the given line ranges blanked (line numbers kept)."""
    lines = text.split("\n")
    for first, last in spans:
        for index in range(first - 1, last):
            lines[index] = ""
    return "\n".join(lines)


# MARK: - Tables of results


def timing_dependent_tests():
    """The GRDB tests whose result on GRDBLite depends on the threads' timing
    (Tests/GRDBCompat/timing-dependent.txt): left out of passing-count, so
    that the check never fails on a test that passes only sometimes."""
    path = os.path.join(COMPAT, "timing-dependent.txt")
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as source:
        lines = (line.split("#")[0].strip() for line in source)
        return {line for line in lines if line}


def counted_passes(rows):
    """The passed tests that passing-count counts."""
    timing = timing_dependent_tests()
    return sum(1 for row in rows if row["grdblite"] == "passed" and row["test"] not in timing)


def read_tsv(path):
    rows = []
    with open(path, encoding="utf-8") as source:
        header = None
        for line in source:
            fields = line.rstrip("\n").split("\t")
            if header is None:
                header = [h.lstrip("# ") for h in fields]
                continue
            rows.append(dict(zip(header, fields)))
    return rows


def write_tsv(path, header, rows):
    with open(path, "w", encoding="utf-8") as out:
        out.write("\t".join(header) + "\n")
        for row in rows:
            out.write("\t".join(one_line(str(row.get(h, "")), 1000) for h in header) + "\n")


# MARK: - Running tests


class Outcome:
    def __init__(self, status, message="", seconds=0.0):
        self.status = status      # passed, failed, skipped
        self.message = message    # the first failure, the crash or the hang
        self.seconds = seconds


def xctest_name(test_id):
    """GRDBTests.Class/test -> Class.test, as XCTest prints it on Linux."""
    return test_id.split(".", 1)[1].replace("/", ".")


CRASH_FRAME = re.compile(r"\] +(?:\[\w+\] +)*0x[0-9a-f]+ (.+?) \+ \d+ in \S+ at (\S+?):(\d+)(?::\d+)?$")


def crash_reason(context, status):
    """What a crashed test printed: the runtime's message (Fatal error...)
    and the innermost frame in GRDBLite's sources, if any."""
    message = next((c for c in context if re.search(r"Fatal error|Precondition failed|Assertion failed", c)), None)
    if message is None:
        message = next((c for c in context if "Program crashed" in c), context[-1] if context else "")
        message = message.strip("* ")
    frame = ""
    for line in context:
        match = CRASH_FRAME.search(line)
        if match and "/Sources/GRDBLite/" in match.group(2):
            function = re.sub(r"\(.*", "", match.group(1))
            frame = f" in {function} ({os.path.basename(match.group(2))}:{match.group(3)})"
            break
    signal_text = f"signal {-status}" if status < 0 else f"exit {status}"
    return f"crashed ({signal_text}): {message}{frame}"


def run_batch(binary, test_ids, timeout, logfile, env):
    """Runs tests in one process. Returns (outcomes, tests not run): a crash
    or a hang fails the running test and leaves the rest unrun."""
    by_name = {xctest_name(t): t for t in test_ids}
    outcomes = {}
    selection = ",".join(test_ids)
    process = subprocess.Popen([binary, selection], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True, env=env)
    lines = queue.Queue()

    def reader():
        for raw in process.stdout:
            lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        lines.put(None)

    threading.Thread(target=reader, daemon=True).start()
    current = None
    failure = {}
    context = []
    hung = False
    with open(logfile, "a", encoding="utf-8") as out:
        out.write(f"$ {os.path.basename(binary)} {selection}\n")
        while True:
            try:
                line = lines.get(timeout=timeout)
            except queue.Empty:
                hung = True
                os.killpg(process.pid, signal.SIGKILL)
                break
            if line is None:
                break
            out.write(line + "\n")
            started = TEST_STARTED.match(line)
            if started:
                current = by_name.get(f"{started.group(1)}.{started.group(2)}")
                context = []
                continue
            ended = TEST_ENDED.match(line)
            if ended:
                test = by_name.get(f"{ended.group(1)}.{ended.group(2)}")
                if test:
                    outcomes[test] = Outcome(ended.group(3), failure.get(test, ""), float(ended.group(4)))
                current = None
                continue
            failed = TEST_FAILURE.match(line) or TEST_SKIPPED.match(line)
            if failed:
                test = by_name.get(f"{failed.group(3)}.{failed.group(4)}")
                if test and test not in failure:
                    where = f" ({os.path.basename(failed.group(1))}:{failed.group(2)})"
                    failure[test] = failed.group(5) + ("" if failed.group(1) == "<EXPR>" else where)
                continue
            if current and line.strip() and len(context) < 400:
                context.append(line.strip())
    status = process.wait()
    if current and current not in outcomes:
        if hung:
            reason = f"hung: no output for {timeout:.0f} s"
        else:
            reason = crash_reason(context, status)
        if current in failure:
            reason += f"; first failure: {failure[current]}"
        outcomes[current] = Outcome("failed", reason)
    elif not outcomes and status != 0:
        # The process died before it ran anything: a runner failure.
        for test in test_ids:
            outcomes[test] = Outcome("failed", f"test process failed to start (exit {status}); see {logfile}")
    remaining = [t for t in test_ids if t not in outcomes]
    return outcomes, remaining


def run_tests(binary, test_ids, jobs, timeout, out_dir, durations):
    """Runs every test; returns test id -> Outcome."""
    classes = {}
    for test in test_ids:
        classes.setdefault(test.split("/")[0], []).append(test)
    # Longest classes first, so that the two workers end together.
    order = sorted(classes, key=lambda c: -sum(durations.get(t, 0.05) for t in classes[c]))
    work = queue.Queue()
    for name in order:
        work.put(classes[name])
    outcomes = {}
    lock = threading.Lock()
    env = dict(os.environ)
    logs = os.path.join(out_dir, "test-logs")
    shutil.rmtree(logs, ignore_errors=True)
    os.makedirs(logs)
    done = [0]

    def worker(index):
        logfile = os.path.join(logs, f"worker-{index}.log")
        while True:
            try:
                batch = work.get_nowait()
            except queue.Empty:
                return
            while batch:
                results, rest = run_batch(binary, batch, timeout, logfile, env)
                if not results:
                    # Nothing ran (a hang or crash before the first test):
                    # don't try again forever.
                    results = {t: Outcome("failed", f"not run: the test process ran nothing; see {logfile}")
                               for t in batch}
                    rest = []
                batch = rest
                with lock:
                    outcomes.update(results)
                    done[0] += len(results)
            with lock:
                log(f"  {done[0]}/{len(test_ids)} tests run")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(max(1, jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # A failed test gets a second chance, alone, with nothing running beside
    # it: concurrency tests with tight timeouts fail on a loaded machine.
    retry = [t for t, o in outcomes.items()
             if o.status == "failed" and not o.message.startswith(("crashed", "hung"))]
    if retry:
        log(f"trying {len(retry)} failed tests again, one process at a time")
        logfile = os.path.join(logs, "retry.log")
        for test in retry:
            results, _ = run_batch(binary, [test], timeout, logfile, env)
            second = results.get(test)
            if second and second.status == "passed":
                second.message = f"flaky: failed once ({outcomes[test].message})"
                outcomes[test] = second
    return outcomes


def list_tests(binary, out_dir):
    listing = subprocess.run([binary, "--list-tests"], capture_output=True, text=True)
    tests = [line.strip() for line in listing.stdout.splitlines() if line.startswith(MODULE + ".")]
    if not tests:
        die(f"{binary} --list-tests listed no test:\n{listing.stdout}{listing.stderr}")
    return tests


# MARK: - Building against GRDBLite


def package_identity(path):
    return os.path.basename(os.path.normpath(path)).lower()


def lite_manifest(defines, library):
    settings = [f'.define("{d}")' for d in DEFINES + defines] + [".swiftLanguageMode(.v5)"] + \
        [f'.enableUpcomingFeature("{f}")' for f in UPCOMING_FEATURES]
    resources = ", ".join(f'.copy("{r}")' for r in RESOURCES)
    joined = ",\n                ".join(settings)
    if library == "GRDB":
        dependency = f'.package(url: "{GRDB_URL}", exact: "{GRDB_VERSION}")'
        product = '.product(name: "GRDB", package: "GRDB.swift")'
    else:
        dependency = f'.package(path: "{REPO}")'
        product = f'.product(name: "GRDBLite", package: "{package_identity(REPO)}")'
    return f"""// swift-tools-version:6.1
// Generated by Scripts/grdb-compat.py: GRDB 7.10's tests built against {library}.
import PackageDescription

let package = Package(
    name: "GRDBCompat",
    dependencies: [{dependency}],
    targets: [
        .testTarget(
            name: "{MODULE}",
            dependencies: [{product}],
            path: "Tests/{MODULE}",
            resources: [{resources}],
            swiftSettings: [
                {joined},
            ]),
    ])
"""


def parse_errors(logfile, folder):
    """file name -> [error messages, with line numbers], for the files of
    `folder`; and the errors that name no file of it."""
    errors = {}
    stray = []
    folder = os.path.realpath(folder)
    seen = set()
    with open(logfile, encoding="utf-8", errors="replace") as source:
        for line in source:
            match = ERROR_LINE.match(line.rstrip("\n"))
            if match:
                path, row, message = os.path.realpath(match.group(1)), match.group(2), match.group(4)
                key = (path, row, match.group(3), message)
                if key in seen:
                    continue
                seen.add(key)
                if os.path.dirname(path) == folder:
                    errors.setdefault(os.path.basename(path), []).append((int(row), message))
                else:
                    stray.append(line.strip())
            elif re.search(r"(^|: )error: ", line) and "error: fatalError" not in line:
                stray.append(line.strip())
    return errors, stray


def build_lite(args, scratch, out_dir, checkout, files, selected, library, plan=None):
    """Builds the scratch package; returns (test binary, file -> errors of
    the files set aside, test id -> (file, errors) of the tests cut out,
    optional support files kept). With a compile plan (read_compile_plan),
    what it lists is set aside or cut out at once and the type-check passes
    are skipped: the build alone finds what else fails."""
    package = os.path.join(scratch, "lite" if library == "GRDBLite" else "on-grdb")
    sources = os.path.join(package, "Tests", MODULE)
    os.makedirs(sources, exist_ok=True)
    grdb_tests = os.path.join(checkout, "Tests", "GRDBTests")

    # The files of the target: GRDB's (imports rewritten), our base class,
    # and the optional support files.
    wanted = {}
    for name in selected:
        if name == "GRDBTestCase.swift":
            continue
        with open(files[name], encoding="utf-8") as source:
            wanted[name] = rewrite_imports(source.read(), library)
    with open(os.path.join(COMPAT, "GRDBTestCase.swift"), encoding="utf-8") as source:
        wanted["GRDBTestCase.swift"] = rewrite_imports(source.read(), library)
    optional = {}
    optional_folder = os.path.join(COMPAT, "Optional")
    for name in sorted(os.listdir(optional_folder)):
        if name.endswith(".swift"):
            target_name = "GRDBCompat+" + name
            with open(os.path.join(optional_folder, name), encoding="utf-8") as source:
                wanted[target_name] = rewrite_imports(source.read(), library)
            optional[target_name] = "GRDBCOMPAT_" + re.sub(r"[^A-Za-z0-9]", "", name[:-6]).upper()
    for resource in RESOURCES:
        with open(os.path.join(grdb_tests, resource), "rb") as source:
            wanted[resource] = source.read()

    # Build the library first: the type-checks need its module.
    write_if_changed(os.path.join(package, "Package.swift"), lite_manifest(sorted(optional.values()), library))
    sync_sources(sources, wanted)
    log(f"building {library} (debug)")
    logfile = os.path.join(out_dir, "build-library.log")
    if run(["swift", "build", "--target", library], package, logfile) != 0:
        die(f"{library} does not build: see {logfile}")
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=package,
                              capture_output=True, text=True, check=True).stdout.strip()

    set_aside = {}  # file -> [(line, error)]
    excised = {}    # test id -> (file, [(line, error)])
    stub = os.path.join(out_dir, "BundleModule.swift")
    write_if_changed(stub, "import Foundation\n\n"
                           "// Stands for SwiftPM's resource accessor while type-checking.\n"
                           "extension Foundation.Bundle { static let module: Bundle = .main }\n")
    modulemaps = []
    c_sources = os.path.join(REPO, "Sources") if library == "GRDBLite" else \
        os.path.join(package, ".build", "checkouts", "GRDB.swift", "Sources", "GRDBSQLite")
    for root, _, names in os.walk(c_sources):
        modulemaps += [os.path.join(root, n) for n in names if n == "module.modulemap"]
    flags = ["-module-name", MODULE, "-parse-as-library", "-swift-version", "5", "-enable-testing",
             "-I", os.path.join(bin_path, "Modules"), "-module-cache-path", os.path.join(bin_path, "ModuleCache"),
             "-DSWIFT_PACKAGE", "-DDEBUG"]
    for feature in UPCOMING_FEATURES:
        flags += ["-enable-upcoming-feature", feature]
    for modulemap in modulemaps:
        flags += ["-Xcc", f"-fmodule-map-file={modulemap}"]
    cpus = os.cpu_count() or 2

    def set_aside_what_fails(errors):
        """Test methods with errors are cut out of their file (their tests
        alone are "not compiled"); a file with errors elsewhere is set
        aside whole. Returns the files to check again."""
        if "GRDBTestCase.swift" in errors:
            die("the base class Tests/GRDBCompat/GRDBTestCase.swift does not compile:\n  "
                + "\n  ".join(f"{line}: {message}" for line, message in errors["GRDBTestCase.swift"][:10]))
        removed, cut = {}, set()
        for name, messages in errors.items():
            spans = test_functions(wanted[name]) if name not in optional else []
            owners = {}
            for line, message in messages:
                span = next((f for f in spans if f[2] <= line <= f[3]), None)
                if span is None:
                    owners = None
                    break
                owners.setdefault(span, []).append((line, message))
            if owners is None:
                set_aside[name] = messages
                removed[name] = wanted[name]
                continue
            for (class_name, test_name, first, last), test_errors in owners.items():
                excised[f"{MODULE}.{class_name}/{test_name}"] = (name, test_errors)
            wanted[name] = without_lines(wanted[name], [(f[2], f[3]) for f in owners])
            cut.add(name)
        log(f"  {len(removed)} files set aside; tests cut out of {len(cut)} files (now {len(excised)} in all)")
        # What remains of a file cut into compiled already (the compiler
        # checks every function body, whatever errors it found before), so
        # only the files that use a name declared in a file set aside need
        # checking again. The build checks everything at the end anyway.
        survivors = {n: wanted[n] for n in wanted if n.endswith(".swift") and n not in set_aside}
        again = dependents(removed, survivors)
        if any(n in optional for n in removed):
            again.add("GRDBTestCase.swift")  # its #if GRDBCOMPAT_... changed
        return again

    planned = plan is not None and apply_compile_plan(plan, wanted, set_aside, excised)
    if planned:
        log(f"compile plan applied: {len(set_aside)} files set aside, {len(excised)} tests cut out "
            f"({os.path.relpath(COMPILE_PLAN, REPO)}); no type-check pass")
    pass_number = 0
    to_check = None  # every file
    while not planned:
        pass_number += 1
        swift_files = sorted(n for n in wanted if n.endswith(".swift") and n not in set_aside)
        sync_sources(sources, {n: c for n, c in wanted.items() if n not in set_aside})
        paths = [os.path.join(sources, n) for n in swift_files] + [stub]
        defines = [f"-D{d}" for d in DEFINES + sorted(d for f, d in optional.items() if f not in set_aside)]
        logfile = os.path.join(out_dir, f"typecheck-{pass_number}.log")
        if to_check is None:
            log(f"type-checking {len(swift_files)} files (pass {pass_number})")
            status = run(["swiftc", "-typecheck", "-continue-building-after-errors", f"-j{cpus}"]
                         + flags + defines + paths, package, logfile)
        else:
            # Only the files that use a name declared by a file set aside
            # can fail now: check them, with the others as context.
            primaries = sorted(n for n in to_check if n in swift_files)
            if not primaries:
                break
            log(f"type-checking {len(primaries)} files again (pass {pass_number})")
            status = typecheck_primaries(primaries, paths, sources, flags + defines, package, logfile, cpus)
        errors, stray = parse_errors(logfile, sources)
        if status == 0:
            break
        if not errors:
            die(f"type-check failed without an error in a test file: see {logfile}\n" + "\n".join(stray[:10]))
        to_check = set_aside_what_fails(errors)
        if pass_number >= 10:
            die("type-checking does not converge")

    # The real build: errors that only code generation finds (definite
    # initialization...) cut out tests or set files aside too.
    build_number = 0
    while True:
        build_number += 1
        keep = {n: c for n, c in wanted.items() if n not in set_aside}
        defines = sorted(d for f, d in optional.items() if f not in set_aside)
        write_if_changed(os.path.join(package, "Package.swift"), lite_manifest(defines, library))
        sync_sources(sources, keep)
        swift_count = len([n for n in keep if n.endswith(".swift")])
        log(f"building {swift_count} files")
        logfile = os.path.join(out_dir, f"build-{build_number}.log")
        status = run(["swift", "build", "--build-tests"], package, logfile)
        if status == 0:
            break
        errors, stray = parse_errors(logfile, sources)
        if not errors:
            die(f"the build failed without an error in a test file: see {logfile}\n" + "\n".join(stray[:10]))
        set_aside_what_fails(errors)
        if build_number >= 5:
            die("the build does not converge")
    binary = os.path.join(bin_path, "GRDBCompatPackageTests.xctest")
    kept = sorted(f for f in optional if f not in set_aside)
    return binary, set_aside, excised, kept


def read_compile_plan():
    """The committed compile plan: [(kind, name, line, error)], kind "file"
    (set aside whole) or "test" (cut out); None when there is none."""
    if not os.path.exists(COMPILE_PLAN):
        return None
    return [(r["kind"], r["name"], int(r["line"]), r["error"]) for r in read_tsv(COMPILE_PLAN)]


def write_compile_plan(set_aside, excised):
    """Writes what does not compile, with each first error, for --check."""
    rows = [{"kind": "file", "name": name, "line": str(messages[0][0]), "error": messages[0][1]}
            for name, messages in sorted(set_aside.items())]
    rows += [{"kind": "test", "name": test, "line": str(messages[0][0]), "error": messages[0][1]}
             for test, (_, messages) in sorted(excised.items())]
    write_tsv(COMPILE_PLAN, ["kind", "name", "line", "error"], rows)


def apply_compile_plan(plan, wanted, set_aside, excised):
    """Sets aside and cuts out what the plan lists. False (nothing changed)
    when the plan doesn't match the sources: a test it names isn't there."""
    files_out = {name: [(line, error)] for kind, name, line, error in plan if kind == "file"}
    cuts = {name: (line, error) for kind, name, line, error in plan if kind == "test"}
    spans_by_file, found = {}, {}
    for name, text in wanted.items():
        if not name.endswith(".swift") or name in files_out:
            continue
        for class_name, test_name, first, last in test_functions(text):
            test = f"{MODULE}.{class_name}/{test_name}"
            if test in cuts:
                spans_by_file.setdefault(name, []).append((first, last))
                found[test] = name
    if set(files_out) - set(wanted) or set(cuts) - set(found):
        log("the compile plan doesn't match GRDB's test files: type-checking every file")
        return False
    set_aside.update(files_out)
    for test, name in found.items():
        excised[test] = (name, [cuts[test]])
    for name, spans in spans_by_file.items():
        wanted[name] = without_lines(wanted[name], spans)
    return True


DECLARATION = re.compile(
    r"^(?:(?:public|internal|open|final|static|class|override|nonisolated|@\w+)\s+)*"
    r"(?:func|var|let|class|struct|enum|protocol|typealias|actor)\s+(\w+)")


def declared_names(text):
    """The names a file declares for other files: its top-level declarations
    and the members of its top-level extensions (not private ones)."""
    names = set()
    in_extension = False
    for line in text.splitlines():
        if line.startswith("extension "):
            in_extension = True
        elif line.startswith("}"):
            in_extension = False
        elif line.startswith("    ") and not line.startswith("     ") and in_extension:
            match = DECLARATION.match(line[4:])
            if match:
                names.add(match.group(1))
            continue
        match = DECLARATION.match(line)
        if match:
            names.add(match.group(1))
    return names


def dependents(removed, remaining):
    """The files of `remaining` that use a name declared in `removed`."""
    names = set()
    for text in removed.values():
        names |= declared_names(text)
    # Plain words (next, wait, load...) would match everything: names with
    # an upper-case letter are specific enough. A dependency missed here
    # fails the build, which sets its file aside all the same.
    names = {n for n in names if re.search(r"[A-Z]", n) and not n.startswith("test")
             and n not in ("setUp", "tearDown")}
    if not names:
        return set()
    pattern = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, names))) + r")\b")
    return {n for n, text in remaining.items() if isinstance(text, str) and pattern.search(text)}


def typecheck_primaries(primaries, paths, sources, flags, cwd, logfile, jobs):
    """Type-checks some files of the module (the others give context only),
    in up to `jobs` compiler processes; returns 0 when no error."""
    shares = [primaries[i::jobs] for i in range(jobs) if primaries[i::jobs]]
    processes = []
    for index, share in enumerate(shares):
        chosen = {os.path.join(sources, n) for n in share}
        command = ["swiftc", "-frontend", "-typecheck"] + flags
        for path in paths:
            command += ["-primary-file", path] if path in chosen else [path]
        out = open(f"{logfile}.{index}", "w")
        processes.append((subprocess.Popen(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT), out))
    status = 0
    with open(logfile, "w") as combined:
        for index, (process, out) in enumerate(processes):
            status = process.wait() or status
            out.close()
            with open(f"{logfile}.{index}") as part:
                combined.write(part.read())
            os.remove(f"{logfile}.{index}")
    return status



def sync_sources(folder, wanted):
    for name in os.listdir(folder):
        if name not in wanted:
            os.remove(os.path.join(folder, name))
    for name, content in wanted.items():
        write_if_changed(os.path.join(folder, name), content)


# MARK: - Reference: GRDB itself


def build_reference(scratch, out_dir, checkout):
    copy = os.path.join(scratch, "reference", "GRDB.swift")
    if not os.path.isdir(copy):
        log(f"copying GRDB {GRDB_VERSION} to {copy}")
        shutil.copytree(checkout, copy, symlinks=True, ignore=shutil.ignore_patterns(".git", ".build"))
    log("building GRDB and its tests (debug)")
    logfile = os.path.join(out_dir, "build-reference.log")
    if run(["swift", "build", "--build-tests"], copy, logfile) != 0:
        die(f"GRDB's tests do not build: see {logfile}")
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=copy,
                              capture_output=True, text=True, check=True).stdout.strip()
    return os.path.join(bin_path, "GRDBPackageTests.xctest")


# MARK: - Report


def count_table(rows):
    """area -> [GRDB passed, GRDBLite passed, failed, not compiled, GRDB
    internals], over the tests that pass on GRDB."""
    table = {area: [0, 0, 0, 0, 0] for area in AREAS}
    for row in rows:
        if row["grdb"] != "passed":
            continue
        counts = table[row["area"]]
        counts[0] += 1
        if row["grdblite"] == "passed":
            counts[1] += 1
        elif row["grdblite"] == "GRDB internals":
            counts[4] += 1
        elif row["grdblite"] == "not compiled":
            counts[3] += 1
        else:
            counts[2] += 1
    return table


def markdown_table(table):
    lines = ["| Area | GRDB passed | GRDBLite passed | failed | not compiled | GRDB internals |",
             "|---|---:|---:|---:|---:|---:|"]
    total = [0] * 5
    for area in AREAS:
        counts = table[area]
        total = [a + b for a, b in zip(total, counts)]
        lines.append(f"| {area} | " + " | ".join(str(c) for c in counts) + " |")
    lines.append("| **total** | " + " | ".join(f"**{c}**" for c in total) + " |")
    return "\n".join(lines), total


def percent_down(part, whole):
    """part of whole in percent, rounded down to a tenth: 2542 of 2553 is
    "99.5", never the "100" that rounding would claim."""
    return f"{math.floor(1000 * part / max(whole, 1)) / 10:.1f}"


def replace_section(path, begin, end, body, check):
    """Replaces the text from begin to end (markers included) of the file at
    path with body, or (check) says whether it is body already."""
    with open(path, encoding="utf-8") as source:
        text = source.read()
    if begin not in text or end not in text:
        die(f"{path} has no {begin} ... {end} section")
    start = text.index(begin)
    stop = text.index(end) + len(end)
    if check:
        return text[start:stop] == body
    with open(path, "w", encoding="utf-8") as out:
        out.write(text[:start] + body + text[stop:])
    return True


README_RUN = re.compile(r"Latest run: (\S+), .* the whole run took (\d+) minutes?")


def readme_text(table, date, minutes):
    """The README's table section: the per-area table and its summary."""
    table_md, total = markdown_table(table)
    public = total[0] - total[4]
    return (f"{TABLE_BEGIN}\n"
            f"Latest run: {date}, GRDB {GRDB_VERSION}: {total[1]} of the {public} GRDB tests that pass on GRDB "
            f"on Linux through its public API pass on GRDBLite ({percent_down(total[1], public)}%); "
            f"the whole run took {minutes} minute{'s' if minutes > 1 else ''} on 2 cores.\n\n{table_md}\n{TABLE_END}")


def update_readme(table, date=None, minutes=None, check=False):
    """Writes the README's table, or (check) says whether it is that of the
    table. Without a date and duration (no run), keeps the README's."""
    if date is None:
        with open(README, encoding="utf-8") as source:
            match = README_RUN.search(source.read())
        if not match:
            die(f"README.md: no 'Latest run: DATE, ... the whole run took N minutes' line in {TABLE_BEGIN}")
        date, minutes = match.group(1), int(match.group(2))
    return replace_section(README, TABLE_BEGIN, TABLE_END, readme_text(table, date, minutes), check)


def figures_text(table, counted):
    """The porting guide's figures, from the per-area counts: the tests that
    pass on GRDB through its public API, how many pass on GRDBLite, and how
    many of those passing-count counts."""
    parts = []
    total = [0, 0]
    for area in AREAS:
        counts = table[area]
        public = counts[0] - counts[4]
        if public == 0:
            continue
        total = [total[0] + counts[1], total[1] + public]
        parts.append(f"{area} {counts[1]} of {public}")
    timing = total[0] - counted
    return (f"{FIGURES_BEGIN}\n"
            f"Of the {total[1]:,} GRDB {GRDB_VERSION} tests that pass on GRDB on Linux through its public API, "
            f"{total[0]:,} pass on GRDBLite ({percent_down(total[0], total[1])}%): {', '.join(parts)}. "
            f"CI's floor (`Tests/GRDBCompat/passing-count`) is {counted:,}: it leaves out the {timing} "
            f"passing test{'s' if timing != 1 else ''} of `Tests/GRDBCompat/timing-dependent.txt`.\n"
            f"{FIGURES_END}")


def update_figures(table, counted, check=False):
    """Writes the figures into the porting guide, or (check) says whether they
    are those of Tests/GRDBCompat/results.tsv."""
    return replace_section(DIFFERENCES, FIGURES_BEGIN, FIGURES_END, figures_text(table, counted), check)


def failure_reasons():
    """test -> (difference, note), from Tests/GRDBCompat/failure-reasons.tsv."""
    reasons = {}
    with open(os.path.join(COMPAT, "failure-reasons.tsv"), encoding="utf-8") as source:
        for line in source:
            if line.startswith("#") or not line.strip():
                continue
            test, reason, note = (line.rstrip("\n").split("\t") + [""])[:3]
            reasons[test] = (reason, note)
    return reasons


def failures_text(rows, reasons, timing):
    """The porting guide's list of the GRDB tests that fail on GRDBLite
    (and those whose result depends on the threads' timing): the
    deliberate ones grouped by difference, in the order of the reasons,
    with their counts; the others to fix, by name."""
    listed = [row["test"] for row in rows
              if row["grdb"] == "passed" and row["grdblite"] in ("failed", "not compiled") or row["test"] in timing]
    groups = {}
    for reason, note in reasons.values():
        groups.setdefault((reason, note), 0)
    to_fix = []
    for test in listed:
        if test in reasons:
            groups[reasons[test]] += 1
        else:
            to_fix.append(test)
    parts = []
    for (reason, note), count in groups.items():
        if count:
            label = str(count) if parts else f"{count} test{'s' if count > 1 else ''}"
            parts.append(f"{reason} ({note + ', ' if note else ''}{label})")
    lines = [FAILURES_BEGIN]
    if parts:
        lines.append(f"- Deliberate: {'; '.join(parts)}.")
    if to_fix:
        lines.append(f"- To fix: {', '.join(f'`{test}`' for test in to_fix)}.")
    return "\n".join(lines + [FAILURES_END])


def read_passing_count():
    with open(os.path.join(COMPAT, "passing-count")) as source:
        return int(source.read().strip())


def write_passing_count(count):
    with open(os.path.join(COMPAT, "passing-count"), "w") as out:
        out.write(f"{count}\n")


def figures(check):
    """--figures: the README's table, the porting guide's figures and
    passing-count, from the committed results.tsv; written, or (check)
    compared. Returns the names of what differs."""
    rows = read_tsv(os.path.join(COMPAT, "results.tsv"))
    table = count_table(rows)
    counted = counted_passes(rows)
    stale = []
    if check and read_passing_count() != counted:
        stale.append("Tests/GRDBCompat/passing-count")
    elif not check:
        write_passing_count(counted)
    if not update_readme(table, check=check):
        stale.append("README.md")
    if not update_figures(table, counted, check=check):
        stale.append("DifferencesFromGRDB.md")
    elif not replace_section(DIFFERENCES, FAILURES_BEGIN, FAILURES_END,
                             failures_text(rows, failure_reasons(), timing_dependent_tests()), check):
        stale.append("DifferencesFromGRDB.md (failures)")
    return stale


def first_error(messages):
    line, message = messages[0]
    return f"{message} (line {line})"


def write_not_compiled(path, set_aside, excised, rows, areas):
    """Every compiler error of what was set aside, by file, for whoever
    fills the API in."""
    passing = {r["test"] for r in rows if r["grdb"] == "passed"}
    with open(path, "w", encoding="utf-8") as out:
        files = sorted(set(set_aside) | {f for f, _ in excised.values()})
        for name in files:
            area = areas.get(name, "support")
            if name in set_aside:
                count = sum(1 for r in rows if r["file"] == name and r["test"] in passing)
                out.write(f"== {name} ({area}): whole file, {count} tests that pass on GRDB\n")
                for line, message in set_aside[name]:
                    out.write(f"   {line}: {message}\n")
            else:
                tests = sorted(t for t, (f, _) in excised.items() if f == name)
                out.write(f"== {name} ({area}): {len(tests)} tests cut out\n")
                for test in tests:
                    mark = "" if test in passing else " (does not pass on GRDB)"
                    out.write(f"   {test.split('/')[1]}{mark}\n")
                    for line, message in excised[test][1]:
                        out.write(f"      {line}: {message}\n")


def compile_status(test, file, set_aside, excised, listed):
    """None when the test is in the binary, else its first compiler error."""
    if file in set_aside:
        return first_error(set_aside[file])
    if test in excised:
        return first_error(excised[test][1])
    if test not in listed:
        return "not in the test binary"
    return None


def run_harness(args, scratch, out_dir, checkout, files, selected, reference, library, plan=None):
    """Builds GRDB's tests against `library` with this harness and runs
    them; returns (rows per reference test, files set aside, tests cut out,
    optional support compiled, seconds of the build)."""
    started = time.time()
    binary, set_aside, excised, kept_optional = build_lite(
        args, scratch, out_dir, checkout, files, selected, library, plan)
    built = time.time() - started
    listed = set(list_tests(binary, out_dir))
    durations = {r["test"]: float(r.get("seconds") or 0) for r in reference}
    to_run = [r["test"] for r in reference if r["test"] in listed]
    log(f"running {len(to_run)} tests on {library}")
    outcomes = run_tests(binary, to_run, args.jobs, args.timeout, out_dir, durations)
    rows = []
    for ref in reference:
        test, file = ref["test"], ref["file"]
        error = compile_status(test, file, set_aside, excised, listed)
        outcome = outcomes.get(test, Outcome("failed", "not run"))
        rows.append({"test": test, "file": file, "grdb": ref["grdb"],
                     "status": "not compiled" if error is not None else outcome.status,
                     "error": error if error is not None else outcome.message})
    return rows, set_aside, excised, kept_optional, built


def main():
    parser = argparse.ArgumentParser(description="GRDB 7.10's test suite against GRDBLite")
    parser.add_argument("--reference", action="store_true",
                        help="run the suite against GRDB itself: its own suite, then this harness on it")
    parser.add_argument("--check", action="store_true",
                        help="fail if fewer tests pass than Tests/GRDBCompat/passing-count")
    parser.add_argument("--record", action="store_true", help="write the results into the repository")
    parser.add_argument("--scratch", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "grdblite-compat"))
    parser.add_argument("--files", default="", help="only these GRDB test files (comma-separated globs)")
    parser.add_argument("--jobs", type=int, default=2, help="test processes at once (default 2)")
    parser.add_argument("--timeout", type=float, default=90, help="seconds of silence that make a hung test")
    parser.add_argument("--figures", choices=["write", "check"],
                        help="only write (or check) the porting guide's figures from results.tsv, without a run")
    args = parser.parse_args()
    if args.figures:
        stale = figures(check=args.figures == "check")
        if stale:
            die(f"the figures of {', '.join(stale)} are not those of Tests/GRDBCompat/results.tsv: "
                "run Scripts/grdb-compat.py --figures write")
        log(f"figures {'written' if args.figures == 'write' else 'match results.tsv'}")
        return 0
    if args.files and (args.record or args.check):
        die("--files runs part of the suite: it can't --record or --check")

    scratch = os.path.abspath(args.scratch)
    checkout = grdb_checkout(scratch)
    log(f"GRDB {GRDB_VERSION} tests from {checkout}")
    files = test_files(checkout)
    areas = read_areas()
    unmapped = sorted(set(files) - set(areas))
    if unmapped:
        die("Tests/GRDBCompat/areas.tsv has no area for: " + ", ".join(unmapped))
    if args.reference:
        reference_main(args, scratch, checkout, files, areas)
    else:
        lite_main(args, scratch, checkout, files, areas)


def reference_main(args, scratch, checkout, files, areas):
    """GRDB's own suite on GRDB (which tests pass on Linux), then this
    harness on GRDB (which of them compile through GRDB's public API, and
    a check of the harness: they must pass here too)."""
    out_dir = os.path.join(scratch, "out-reference")
    os.makedirs(out_dir, exist_ok=True)
    locate = tests_by_file(files)
    binary = build_reference(scratch, out_dir, checkout)
    tests = list_tests(binary, out_dir)
    log(f"running {len(tests)} tests on GRDB, with GRDB's own base class")
    outcomes = run_tests(binary, tests, args.jobs, args.timeout, out_dir, {})
    rows = []
    for test in tests:
        class_name, test_name = test[len(MODULE) + 1:].split("/")
        file = locate(class_name, test_name)
        outcome = outcomes.get(test, Outcome("failed", "not run"))
        rows.append({"test": test, "file": file, "area": areas.get(file, "other"),
                     "grdb": outcome.status, "seconds": f"{outcome.seconds:.3f}", "error": outcome.message})

    log("the same tests through this harness on GRDB (public API, our base class)")
    harness_out = os.path.join(scratch, "out-harness-on-grdb")
    os.makedirs(harness_out, exist_ok=True)
    harness_rows, set_aside, excised, _, _ = run_harness(
        args, scratch, harness_out, checkout, files, list(files), rows, "GRDB")
    write_not_compiled(os.path.join(harness_out, "not-compiled.txt"), set_aside, excised, rows, areas)
    suspicious = []
    for row, harness in zip(rows, harness_rows):
        row["public"] = "no" if harness["status"] == "not compiled" else "yes"
        if row["public"] == "no" and row["grdb"] == "passed":
            row["error"] = f"needs GRDB internals: {harness['error']}"
        if row["grdb"] == "passed" and harness["status"] not in ("passed", "not compiled"):
            suspicious.append(f"  {row['test']}: {harness['error']}")
    header = ["test", "file", "area", "grdb", "public", "seconds", "error"]
    write_tsv(os.path.join(out_dir, "reference.tsv"), header, rows)
    if args.record:
        write_tsv(os.path.join(COMPAT, "reference.tsv"), header, rows)
    passed = sum(1 for r in rows if r["grdb"] == "passed")
    skipped = sum(1 for r in rows if r["grdb"] == "skipped")
    internals = sum(1 for r in rows if r["grdb"] == "passed" and r["public"] == "no")
    print(f"GRDB {GRDB_VERSION} on Linux: {len(rows)} tests: {passed} pass, {skipped} skipped, "
          f"{len(rows) - passed - skipped} fail; of those that pass, {internals} need GRDB's internals "
          f"(@testable); {time.time() - STARTED:.0f} s.")
    if suspicious:
        print(f"{len(suspicious)} tests pass in GRDB's own suite but fail through this harness on GRDB "
              f"(a difference of the base class?):")
        print("\n".join(suspicious))
    else:
        print("Every test that passes in GRDB's own suite and compiles through this harness passes in it too.")


def result_row(ref, harness, areas):
    """A row of results.tsv: a test's reference row (its result on GRDB, and
    whether it uses GRDB's public API only) and its result on GRDBLite. A
    test of GRDB's internals that doesn't compile is "GRDB internals", out
    of the count."""
    status, error = harness["status"], harness["error"]
    if status == "not compiled" and ref.get("public") == "no":
        status = "GRDB internals"
    return {"test": ref["test"], "file": ref["file"], "area": areas.get(ref["file"], "other"),
            "grdb": ref["grdb"], "grdblite": status, "error": error}


def lite_main(args, scratch, checkout, files, areas):
    out_dir = os.path.join(scratch, "out")
    os.makedirs(out_dir, exist_ok=True)
    reference = read_tsv(os.path.join(COMPAT, "reference.tsv"))
    globs = [g.strip() for g in args.files.split(",") if g.strip()]
    tested_files = {r["file"] for r in reference}
    if globs:
        selected = [n for n in files if n not in tested_files or any(fnmatch.fnmatch(n, g) for g in globs)]
        reference = [r for r in reference if any(fnmatch.fnmatch(r["file"], g) for g in globs)]
        if not reference:
            die(f"no GRDB test file matches {args.files}")
    else:
        selected = list(files)

    # --check builds what the last --record compiled (a test that compiles
    # only since then stays out until the next --record); the others find
    # what compiles from scratch.
    plan = read_compile_plan() if args.check else None
    harness_rows, set_aside, excised, kept_optional, built = run_harness(
        args, scratch, out_dir, checkout, files, selected, reference, "GRDBLite", plan)
    rows = [result_row(ref, harness, areas) for ref, harness in zip(reference, harness_rows)]
    header = ["test", "file", "area", "grdb", "grdblite", "error"]
    write_tsv(os.path.join(out_dir, "results.tsv"), header, rows)
    write_not_compiled(os.path.join(out_dir, "not-compiled.txt"), set_aside, excised, rows, areas)

    table_md, total = markdown_table(count_table(rows))
    with open(os.path.join(out_dir, "table.md"), "w", encoding="utf-8") as out:
        out.write(table_md + "\n")
    seconds = time.time() - STARTED
    public = total[0] - total[4]
    print(f"GRDB {GRDB_VERSION}'s own tests on GRDBLite (the tests that pass on GRDB on Linux):\n")
    print(table_md)
    print(f"\nGRDB compatibility: {total[1]} of the {public} GRDB tests written against GRDB's public API pass "
          f"on GRDBLite ({percent_down(total[1], public)}%); {total[2]} fail, {total[3]} don't compile "
          f"({len(set_aside)} files set aside, {len(excised)} tests cut out of the others); {total[4]} use GRDB's "
          f"internals. Optional support compiled: {', '.join(kept_optional) or 'none'}. "
          f"Build {built:.0f} s, whole run {seconds:.0f} s. Details: {out_dir}/results.tsv, not-compiled.txt, "
          f"test-logs/")

    if args.record:
        write_tsv(os.path.join(COMPAT, "results.tsv"), header, rows)
        write_compile_plan(set_aside, excised)
        write_passing_count(counted_passes(rows))
        update_readme(count_table(rows), datetime.date.today().isoformat(), max(1, round(seconds / 60)))
        update_figures(count_table(rows), counted_passes(rows))
        replace_section(DIFFERENCES, FAILURES_BEGIN, FAILURES_END,
                        failures_text(rows, failure_reasons(), timing_dependent_tests()), False)
        log("recorded: Tests/GRDBCompat/results.tsv, compile-plan.tsv, passing-count, README.md, "
            "DifferencesFromGRDB.md")

    if args.check:
        floor = read_passing_count()
        counted = counted_passes(rows)
        if counted < floor:
            committed = {r["test"]: r for r in read_tsv(os.path.join(COMPAT, "results.tsv"))}
            lost = [r for r in rows
                    if r["grdblite"] != "passed" and committed.get(r["test"], {}).get("grdblite") == "passed"]
            print(f"\nGRDB compatibility regressed: {counted} GRDB tests pass on GRDBLite, the committed figure "
                  f"(Tests/GRDBCompat/passing-count) is {floor}. Tests that passed and don't any more:")
            for row in lost[:200]:
                print(f"  {row['test']}: {row['grdblite']}: {row['error']}")
            sys.exit(1)
        if counted > floor:
            print(f"GRDB compatibility improved: {counted} tests pass, the committed figure is {floor}: "
                  "record it with Scripts/grdb-compat.sh --record.")
        print(f"GRDB compatibility check passed: {counted} >= {floor} (tests in timing-dependent.txt not counted).")


if __name__ == "__main__":
    main()
