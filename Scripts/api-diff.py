#!/usr/bin/env python3
"""GRDB 7.10's public API against GRDBLite's: the API surface report.

Both modules' public symbols come from `swift-symbolgraph-extract
-minimum-access-level public` (extensions of other modules' types
included: `Optional`, `Collection`, `Decimal`...). A symbol is its kind
and its path with argument labels, module names removed:
`func.op SQLSubquery.==(_:_:)`, `method Cursor.dropFirst()` (static and
instance members alike: `property Inflections.default`). Overloads that
differ only by types are one symbol.

GRDB's module is built from its SwiftPM checkout (the benchmark's, or one
resolved in the scratch folder, as Scripts/grdb-compat.py finds it), with
a scratch path of its own: nothing is written in the checkout. A build
that is already there (the benchmark's release build, the compatibility
report's reference build) is used as it is.

Prints the GRDB symbols that GRDBLite lacks, by top-level type, and the
GRDBLite-only ones; writes Tests/GRDBCompat/api-surface.tsv (every symbol
and its status); exits 1 when a GRDB symbol is missing that
Tests/GRDBCompat/api-exclusions.tsv doesn't list with a reason, or when a
GRDBLite-only public symbol is not listed in Tests/GRDBCompat/api-additions.tsv
with its category and reason (or is listed there but no longer GRDBLite-only).
`@_spi(GRDBLite)` symbols are not in the public graph: opting into them
is the user's choice, as with GRDB's own underscored API. The last line:
`api-surface: N of M GRDB public symbols present (P%); GRDBLite-only: X
(capable SQLite K, additions A, same API as GRDB S)`.
"""

import argparse
import importlib.util
import json
import math
import os
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMPAT = os.path.join(REPO, "Tests", "GRDBCompat")
SURFACE = os.path.join(COMPAT, "api-surface.tsv")
EXCLUSIONS = os.path.join(COMPAT, "api-exclusions.tsv")
ADDITIONS = os.path.join(COMPAT, "api-additions.tsv")
DIFFERENCES = os.path.join(REPO, "Sources", "GRDBLite", "GRDBLite.docc", "DifferencesFromGRDB.md")
FIGURES_BEGIN = "<!-- api-surface-figures: written by Scripts/api-diff.sh -->"
FIGURES_END = "<!-- /api-surface-figures -->"
# The categories of GRDBLite-only public symbols, as the last line names them.
ADDITION_CATEGORIES = {
    # GRDB has it under a build condition that Linux's system SQLite lacks.
    "capable-sqlite": "capable SQLite",
    # GRDB lacks it: an extension of GRDBLite's, documented as such.
    "addition": "additions",
    # The same declaration as GRDB's, that the symbol graph lists under
    # another path (a member synthesized on a conforming type).
    "same-as-grdb": "same API as GRDB",
}
STARTED = time.time()


def log(message):
    elapsed = int(time.time() - STARTED)
    print(f"api-diff [{elapsed // 60}:{elapsed % 60:02d}]: {message}", file=sys.stderr, flush=True)


def die(message):
    log(message)
    sys.exit(2)


def compat_module():
    """Scripts/grdb-compat.py, for its GRDB checkout lookup."""
    spec = importlib.util.spec_from_file_location("grdb_compat", os.path.join(REPO, "Scripts", "grdb-compat.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(command, cwd, logfile):
    with open(logfile, "w") as out:
        status = subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT).returncode
    if status != 0:
        die(f"`{' '.join(command)}` failed: see {logfile}")


def output(command, cwd=None):
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def toolchain_tool(name):
    swift_bin = os.path.dirname(os.path.realpath(output(["sh", "-c", "command -v swift"])))
    candidate = os.path.join(swift_bin, name)
    if os.access(candidate, os.X_OK):
        return candidate
    die(f"{name} not found next to swift")


def target_triple():
    return json.loads(output(["swift", "-print-target-info"]))["target"]["triple"]


def sqlite_flags():
    try:
        flags = output(["pkg-config", "--cflags", "sqlite3"]).split()
    except (OSError, subprocess.CalledProcessError):
        return []
    return [item for flag in flags for item in ("-Xcc", flag)]


def modules_folder(bin_path, module):
    """The folder of `module.swiftmodule` in a SwiftPM build folder, or None."""
    for folder in (os.path.join(bin_path, "Modules"), bin_path):
        if os.path.exists(os.path.join(folder, f"{module}.swiftmodule")):
            return folder
    return None


def extract(module, modules, includes, out_dir, logfile):
    """The public symbols of `module`: {"kind path"}."""
    os.makedirs(out_dir, exist_ok=True)
    for name in os.listdir(out_dir):
        os.remove(os.path.join(out_dir, name))
    command = [toolchain_tool("swift-symbolgraph-extract"), "-module-name", module, "-target", target_triple(),
               "-I", modules, "-module-cache-path", os.path.join(os.path.dirname(out_dir), f"ModuleCache-{module}")]
    for include in includes:
        command += ["-I", include]
    command += sqlite_flags() + ["-minimum-access-level", "public", "-output-dir", out_dir]
    run(command, REPO, logfile)
    return graph_symbols(out_dir)


def graph_symbols(out_dir):
    """The symbols of the symbol graphs in out_dir: {"kind path"}."""
    symbols = set()
    for name in sorted(os.listdir(out_dir)):
        if not name.endswith(".symbols.json"):
            continue
        with open(os.path.join(out_dir, name)) as graph:
            for symbol in json.load(graph)["symbols"]:
                kind = symbol["kind"]["identifier"]
                # `swift.type.method` and `swift.method` are both `method`:
                # a static member is the same API name as an instance one.
                kind = kind.removeprefix("swift.").removeprefix("type.")
                symbols.add(f"{kind} {'.'.join(symbol['pathComponents'])}")
    return symbols


def grdb_symbols(scratch, checkout):
    """GRDB's public symbols, from a build already made or a new one."""
    builds = [
        os.path.join(REPO, "Benchmarks", ".build", "release"),
        os.path.join(REPO, "Benchmarks", ".build", "debug"),
        os.path.join(scratch, "api-grdb", "debug"),
    ]
    modules = next((folder for folder in map(lambda b: modules_folder(b, "GRDB"), builds) if folder), None)
    if modules is None:
        log(f"building GRDB (debug) from {checkout}")
        run(["swift", "build", "--package-path", checkout, "--scratch-path", os.path.join(scratch, "api-grdb"),
             "--target", "GRDB"], REPO, os.path.join(scratch, "api-grdb.log"))
        modules = modules_folder(os.path.join(scratch, "api-grdb", "debug"), "GRDB")
    log(f"GRDB's module: {modules}")
    return extract("GRDB", modules, [os.path.join(checkout, "Sources", "GRDBSQLite")],
                   os.path.join(scratch, "graphs-grdb"), os.path.join(scratch, "extract-grdb.log"))


def grdblite_symbols(scratch, root, test_build):
    """GRDBLite's public symbols: from its debug build for the target, or with
    `test_build`, from the test build's module (built for the host, as
    Scripts/test.sh builds it: a no-op after it)."""
    bin_path = output(["swift", "build", "--show-bin-path"], cwd=root)
    if test_build:
        log(f"building GRDBLitePackageTests (debug) in {root}")
        run(["swift", "build", "--product", "GRDBLitePackageTests"], root, os.path.join(scratch, "build-grdblite.log"))
        modules = modules_folder(os.path.join(bin_path, "Modules-tool"), "GRDBLite") or die(
            f"no GRDBLite.swiftmodule in {bin_path}/Modules-tool")
    else:
        log(f"building GRDBLite (debug) in {root}")
        run(["swift", "build", "--target", "GRDBLite"], root, os.path.join(scratch, "build-grdblite.log"))
        modules = modules_folder(bin_path, "GRDBLite")
    return extract("GRDBLite", modules, [os.path.join(root, "Sources", "CSQLite")],
                   os.path.join(scratch, "graphs-grdblite"), os.path.join(scratch, "extract-grdblite.log"))


def read_exclusions():
    """symbol -> reason, from the committed list (comments start with #)."""
    exclusions = {}
    with open(EXCLUSIONS) as source:
        for number, line in enumerate(source, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            symbol, _, reason = line.partition("\t")
            if not reason.strip():
                die(f"{EXCLUSIONS}:{number}: no reason for {symbol!r} (symbol, tab, reason)")
            exclusions[symbol] = reason.strip()
    return exclusions


def read_additions():
    """symbol -> (category, reason), from the committed list of GRDBLite-only symbols."""
    additions = {}
    with open(ADDITIONS) as source:
        for number, line in enumerate(source, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            symbol, _, rest = line.partition("\t")
            category, _, reason = rest.partition("\t")
            if category not in ADDITION_CATEGORIES or not reason.strip():
                die(f"{ADDITIONS}:{number}: expected symbol, tab, one of "
                    f"{', '.join(sorted(ADDITION_CATEGORIES))}, tab, reason: {line!r}")
            additions[symbol] = (category, reason.strip())
    return additions


def read_surface(path=SURFACE):
    """symbol -> status, from api-surface.tsv (its first line is a comment,
    its second the header)."""
    statuses = {}
    with open(path, encoding="utf-8") as source:
        for line in source:
            symbol, _, status = line.rstrip("\n").partition("\t")
            if line.startswith("#") or (symbol, status) == ("symbol", "status"):
                continue
            statuses[symbol] = status
    return statuses


def surface_counts(statuses):
    """(GRDB symbols present in GRDBLite, GRDB symbols): excluded and
    missing symbols are GRDB's, GRDBLite-only ones are not."""
    present = sum(1 for status in statuses.values() if status == "present")
    grdb = sum(1 for status in statuses.values() if status in ("present", "excluded", "missing"))
    return present, grdb


def percent_down(part, whole):
    """part of whole in percent, rounded down to a tenth."""
    return f"{math.floor(1000 * part / max(whole, 1)) / 10:.1f}"


def figures_text(statuses):
    """The porting guide's API figures, indented as the bullet that holds
    them (its indentation comes before the first marker)."""
    present, grdb = surface_counts(statuses)
    return (f"{FIGURES_BEGIN}\n"
            f"  {present:,} of GRDB 7.10's {grdb:,} Linux public symbols are in GRDBLite "
            f"({percent_down(present, grdb)}%).\n"
            f"  {FIGURES_END}")


def update_figures(statuses, check=False, path=DIFFERENCES):
    """Writes the API figures into the porting guide, or (check) says whether
    they are those of api-surface.tsv."""
    with open(path, encoding="utf-8") as source:
        text = source.read()
    if FIGURES_BEGIN not in text or FIGURES_END not in text:
        die(f"{path} has no {FIGURES_BEGIN} ... {FIGURES_END} section")
    start = text.index(FIGURES_BEGIN)
    end = text.index(FIGURES_END) + len(FIGURES_END)
    body = figures_text(statuses)
    if check:
        return text[start:end] == body
    with open(path, "w", encoding="utf-8") as out:
        out.write(text[:start] + body + text[end:])
    return True


def top_level(symbol):
    return symbol.split(" ", 1)[1].split(".", 1)[0]


def compare(grdb, lite, exclusions, additions):
    """GRDB's symbols against GRDBLite's: (missing, missing and not excluded,
    excluded but not missing, GRDBLite-only, GRDBLite-only and not listed as
    additions, listed as additions but not GRDBLite-only), each sorted."""
    missing = sorted(grdb - lite)
    extra = sorted(lite - grdb)
    return (missing,
            [symbol for symbol in missing if symbol not in exclusions],
            sorted(symbol for symbol in exclusions if symbol not in missing),
            extra,
            [symbol for symbol in extra if symbol not in additions],
            sorted(symbol for symbol in additions if symbol not in extra))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scratch", default=os.path.join(os.environ.get("TMPDIR", "/tmp"), "grdblite-api-diff"),
                        help="build and graph folder, kept between runs (default: %(default)s)")
    parser.add_argument("--lite-root", default=REPO,
                        help="the GRDBLite checkout to compare (default: this one)")
    parser.add_argument("--no-write", action="store_true", help="don't write Tests/GRDBCompat/api-surface.tsv")
    parser.add_argument("--test-build", action="store_true",
                        help="graph the module of Scripts/test.sh's build (.build/debug/Modules-tool) instead of "
                             "building GRDBLite for the target")
    parser.add_argument("--figures", choices=["write", "check"],
                        help="only write (or check) the porting guide's API figures from api-surface.tsv, "
                             "without a build")
    args = parser.parse_args()
    if args.figures:
        if update_figures(read_surface(), check=args.figures == "check"):
            log(f"API figures {'written' if args.figures == 'write' else 'match api-surface.tsv'}")
            return 0
        die("the API figures of DifferencesFromGRDB.md are not those of Tests/GRDBCompat/api-surface.tsv: "
            "run Scripts/api-diff.py --figures write")
    scratch = os.path.abspath(args.scratch)
    os.makedirs(scratch, exist_ok=True)

    checkout = compat_module().grdb_checkout(scratch)
    grdb = grdb_symbols(scratch, checkout)
    lite = grdblite_symbols(scratch, os.path.abspath(args.lite_root), args.test_build)
    exclusions = read_exclusions()
    additions = read_additions()

    missing, unexcused, stale, extra, unlisted, stale_additions = compare(grdb, lite, exclusions, additions)

    by_type = {}
    for symbol in missing:
        by_type.setdefault(top_level(symbol), []).append(symbol)
    print(f"# GRDB 7.10 public symbols missing from GRDBLite ({len(missing)}), by top-level type;")
    print("# (x) marks the excluded ones, see Tests/GRDBCompat/api-exclusions.tsv.")
    for name, symbols in sorted(by_type.items(), key=lambda item: (-len(item[1]), item[0])):
        print(f"## {name}: {len(symbols)} missing")
        for symbol in symbols:
            print(f"    {'(x) ' if symbol in exclusions else ''}{symbol}")
    print(f"\n# GRDBLite-only public symbols ({len(extra)}), by category;")
    print("# (?) marks the ones Tests/GRDBCompat/api-additions.tsv doesn't list.")
    for category in list(ADDITION_CATEGORIES) + [None]:
        symbols = [symbol for symbol in extra if additions.get(symbol, (None,))[0] == category]
        if symbols:
            print(f"## {category or 'unlisted'}: {len(symbols)}")
        for symbol in symbols:
            print(f"    {'' if category else '(?) '}{symbol}")

    if not args.no_write:
        rows = [(symbol, "present") for symbol in grdb & lite]
        rows += [(symbol, "excluded" if symbol in exclusions else "missing") for symbol in missing]
        rows += [(symbol, "grdblite-only") for symbol in extra]
        with open(SURFACE, "w") as out:
            out.write("# Written by Scripts/api-diff.sh: every GRDB 7.10 and GRDBLite public symbol (kind, path).\n")
            out.write("symbol\tstatus\n")
            for symbol, status in sorted(rows):
                out.write(f"{symbol}\t{status}\n")
        update_figures(read_surface())

    print()
    for symbol in stale:
        print(f"api-surface: excluded but present or unknown, remove it from the exclusions: {symbol}")
    for symbol in unexcused:
        print(f"api-surface: missing, not excluded: {symbol}")
    for symbol in stale_additions:
        print(f"api-surface: listed as an addition but not GRDBLite-only, remove it from the additions: {symbol}")
    for symbol in unlisted:
        print(f"api-surface: GRDBLite-only public symbol, not in the additions (make it internal or "
              f"@_spi(GRDBLite), or list it): {symbol}")
    present = len(grdb & lite)
    counts = ", ".join(
        f"{name} {sum(1 for symbol in extra if additions.get(symbol, (None,))[0] == category)}"
        for category, name in ADDITION_CATEGORIES.items())
    if unlisted:
        counts += f", unlisted {len(unlisted)}"
    print(f"api-surface: {present} of {len(grdb)} GRDB public symbols present "
          f"({percent_down(present, len(grdb))}%); GRDBLite-only: {len(extra)} ({counts})")
    return 1 if unexcused or unlisted or stale_additions else 0


if __name__ == "__main__":
    sys.exit(main())
