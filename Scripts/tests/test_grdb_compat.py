"""Scripts/grdb-compat.py on small fixtures: the Swift lexer that finds GRDB's
test methods, the compiler's errors, the XCTest output of a test process, and
the counts behind the headline figure (a test that doesn't compile, a flaky
test, a test whose result depends on the threads' timing)."""

import os
import stat
import sys
import tempfile
import textwrap
import unittest

from support import load

compat = load("grdb-compat")

SOURCE = textwrap.dedent('''\
    import XCTest

    // func testCommentedOut() { }
    class RowTests: GRDBTestCase {
        let sql = "func testInAString() { }"
        let raw = #"a "quoted" func testInARawString() {"#

        func testOne() throws {
            let text = """
                func testInAMultilineString() {
                \\(value.map { "}" })
                """
            func testNested() { }
        }

        @available(*, deprecated)
        func testTwo() { /* } */ }

        func helper() { }
    }

    extension RowTests {
        func testThree() { }
    }
    ''')


class TestFunctionsTests(unittest.TestCase):
    def test_finds_the_test_methods_of_top_level_types_only(self):
        self.assertEqual(compat.test_functions(SOURCE), [
            ("RowTests", "testOne", 8, 14),
            ("RowTests", "testTwo", 16, 17),
            ("RowTests", "testThree", 23, 23),
        ])

    def test_comments_and_strings_are_not_code(self):
        mask = compat.code_mask('let a = "{" // }\nlet b = #"\\("#\n/* { /* } */ */ c')
        code = "".join(char for char, flag in zip('let a = "{" // }\nlet b = #"\\("#\n/* { /* } */ */ c', mask)
                       if flag)
        self.assertEqual(code, "let a =  \nlet b = \n c")

    def test_without_lines_keeps_the_line_numbers(self):
        self.assertEqual(compat.without_lines("a\nb\nc\nd", [(2, 3)]), "a\n\n\nd")


class ParseErrorsTests(unittest.TestCase):
    def test_errors_by_file_of_the_folder_and_the_others(self):
        with tempfile.TemporaryDirectory() as folder:
            log = os.path.join(folder, "build.log")
            with open(log, "w") as out:
                out.write(f"{folder}/RowTests.swift:12:5: error: cannot find 'dbWriter' in scope\n"
                          f"{folder}/RowTests.swift:12:5: error: cannot find 'dbWriter' in scope\n"
                          f"{folder}/RowTests.swift:3:1: warning: unused\n"
                          f"{folder}/FTS5Tests.swift:40:9: error: value has no member 'tokenizer'\n"
                          "/elsewhere/Support.swift:1:1: error: no such module 'GRDB'\n"
                          "error: fatalError\n"
                          "error: link command failed\n")
            errors, stray = compat.parse_errors(log, folder)
        self.assertEqual(errors, {
            "RowTests.swift": [(12, "cannot find 'dbWriter' in scope")],
            "FTS5Tests.swift": [(40, "value has no member 'tokenizer'")],
        })
        self.assertEqual(stray, ["/elsewhere/Support.swift:1:1: error: no such module 'GRDB'",
                                 "error: link command failed"])


def row(test, grdb, grdblite, area="core"):
    return {"test": test, "file": "RowTests.swift", "area": area, "grdb": grdb, "grdblite": grdblite, "error": ""}


class CountTests(unittest.TestCase):
    def test_a_test_that_does_not_compile(self):
        areas = {"RowTests.swift": "core"}
        public = {"test": "GRDBTests.RowTests/testA", "file": "RowTests.swift", "grdb": "passed", "public": "yes"}
        internal = dict(public, test="GRDBTests.RowTests/testB", public="no")
        not_compiled = {"status": "not compiled", "error": "cannot find 'x' in scope (line 3)"}
        self.assertEqual(compat.result_row(public, not_compiled, areas)["grdblite"], "not compiled")
        self.assertEqual(compat.result_row(internal, not_compiled, areas)["grdblite"], "GRDB internals")
        passed = compat.result_row(internal, {"status": "passed", "error": ""}, areas)
        self.assertEqual(passed["grdblite"], "passed")

    def test_count_table_counts_only_what_passes_on_grdb(self):
        rows = [row("a", "passed", "passed"), row("b", "passed", "failed"), row("c", "passed", "not compiled"),
                row("d", "passed", "GRDB internals"), row("e", "failed", "passed"),
                row("f", "passed", "passed", area="FTS")]
        table = compat.count_table(rows)
        self.assertEqual(table["core"], [4, 1, 1, 1, 1])
        self.assertEqual(table["FTS"], [1, 1, 0, 0, 0])
        self.assertEqual(table["JSON"], [0, 0, 0, 0, 0])

    def test_a_timing_dependent_test_is_reported_but_not_counted(self):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "timing-dependent.txt"), "w") as out:
                out.write("# A comment\n\nGRDBTests.PoolTests/testRace  # the writer may come first\n")
            saved, compat.COMPAT = compat.COMPAT, folder
            try:
                self.assertEqual(compat.timing_dependent_tests(), {"GRDBTests.PoolTests/testRace"})
                rows = [row("GRDBTests.PoolTests/testRace", "passed", "passed"),
                        row("GRDBTests.PoolTests/testOther", "passed", "passed"),
                        row("GRDBTests.PoolTests/testFailing", "passed", "failed")]
                self.assertEqual(compat.counted_passes(rows), 1)
            finally:
                compat.COMPAT = saved

    def test_percentages_are_rounded_down(self):
        self.assertEqual(compat.percent_down(2542, 2553), "99.5")
        self.assertEqual(compat.percent_down(2553, 2553), "100.0")
        self.assertEqual(compat.percent_down(0, 0), "0.0")

    def test_figures_say_what_passes_and_what_the_floor_counts(self):
        table = {area: [0, 0, 0, 0, 0] for area in compat.AREAS}
        table["core"] = [12, 9, 1, 0, 2]
        table["FTS"] = [4, 4, 0, 0, 0]
        text = compat.figures_text(table, counted=12)
        self.assertIn("Of the 14 GRDB 7.10.0 tests that pass on GRDB on Linux through its public API, 13 pass "
                      "on GRDBLite (92.8%): core 9 of 10, FTS 4 of 4. CI's floor", text)
        self.assertIn("is 12: it leaves out the 1 passing test of", text)
        readme = compat.readme_text(table, "2026-01-02", 3)
        self.assertIn("Latest run: 2026-01-02, GRDB 7.10.0: 13 of the 14 GRDB tests", readme)
        self.assertIn("(92.8%); the whole run took 3 minutes on 2 cores.", readme)
        self.assertIn("| core | 12 | 9 | 1 | 0 | 2 |", readme)
        self.assertIn("| **total** | **16** | **13** | **1** | **0** | **2** |", readme)


class FailuresTests(unittest.TestCase):
    def test_deliberate_failures_are_grouped_and_the_others_are_to_fix(self):
        rows = [row("T/utf8a", "passed", "failed"), row("T/utf8b", "passed", "failed"),
                row("T/label", "passed", "not compiled"), row("T/new", "passed", "failed"),
                row("T/race", "passed", "passed"), row("T/fine", "passed", "passed"),
                row("T/internals", "passed", "GRDB internals"), row("T/grdbFails", "failed", "failed")]
        reasons = {"T/utf8a": ("UTF-8 isn't repaired", ""), "T/utf8b": ("UTF-8 isn't repaired", ""),
                   "T/race": ("a read's snapshot", "timing"), "T/label": ("labels", ""),
                   "T/gone": ("no longer fails", "")}
        self.assertEqual(compat.failures_text(rows, reasons, timing={"T/race"}), "\n".join([
            compat.FAILURES_BEGIN,
            "- Deliberate: UTF-8 isn't repaired (2 tests); a read's snapshot (timing, 1); labels (1).",
            "- To fix: `T/new`.",
            compat.FAILURES_END,
        ]))


FAKE_TEST_BINARY = textwrap.dedent('''\
    #!{python}
    # A test process: runs the tests of argv[1] as XCTest prints them on Linux.
    import os, signal, sys
    state = {state!r}
    for test in sys.argv[1].split(","):
        name = test.split(".", 1)[1].replace("/", ".")
        print(f"Test Case '{{name}}' started at 2026-01-01 00:00:00.000", flush=True)
        kind = test.rsplit("/", 1)[1]
        if kind == "testFlaky" and not os.path.exists(state):
            open(state, "w").close()
            kind = "testFails"
        if kind == "testFails":
            print(f"/src/RowTests.swift:12: error: {{name}} : XCTAssertEqual failed: (1) is not equal to (2)")
            print(f"Test Case '{{name}}' failed (0.010 seconds)", flush=True)
        elif kind == "testCrashes":
            print("Fatal error: Unexpectedly found nil", flush=True)
            os.kill(os.getpid(), signal.SIGABRT)
        else:
            print(f"Test Case '{{name}}' passed (0.020 seconds)", flush=True)
    ''')


class RunTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.binary = os.path.join(self.folder.name, "tests.xctest")
        with open(self.binary, "w") as out:
            out.write(FAKE_TEST_BINARY.format(python=sys.executable, state=os.path.join(self.folder.name, "ran")))
        os.chmod(self.binary, os.stat(self.binary).st_mode | stat.S_IEXEC)

    def tearDown(self):
        self.folder.cleanup()

    def test_a_crash_fails_the_running_test_and_leaves_the_rest(self):
        tests = ["GRDBTests.RowTests/testPasses", "GRDBTests.RowTests/testFails", "GRDBTests.RowTests/testCrashes",
                 "GRDBTests.RowTests/testAfter"]
        outcomes, rest = compat.run_batch(self.binary, tests, 30, os.path.join(self.folder.name, "log"), None)
        self.assertEqual(rest, ["GRDBTests.RowTests/testAfter"])
        self.assertEqual(outcomes["GRDBTests.RowTests/testPasses"].status, "passed")
        self.assertEqual(outcomes["GRDBTests.RowTests/testPasses"].seconds, 0.02)
        failed = outcomes["GRDBTests.RowTests/testFails"]
        self.assertEqual((failed.status, failed.message),
                         ("failed", "XCTAssertEqual failed: (1) is not equal to (2) (RowTests.swift:12)"))
        crashed = outcomes["GRDBTests.RowTests/testCrashes"]
        self.assertEqual((crashed.status, crashed.message),
                         ("failed", "crashed (signal 6): Fatal error: Unexpectedly found nil"))

    def test_a_flaky_test_passes_on_its_second_chance(self):
        tests = ["GRDBTests.RowTests/testFlaky", "GRDBTests.RowTests/testFails", "GRDBTests.RowTests/testPasses"]
        outcomes = compat.run_tests(self.binary, tests, 1, 30, self.folder.name, {})
        flaky = outcomes["GRDBTests.RowTests/testFlaky"]
        self.assertEqual(flaky.status, "passed")
        self.assertTrue(flaky.message.startswith("flaky: failed once (XCTAssertEqual failed"), flaky.message)
        self.assertEqual(outcomes["GRDBTests.RowTests/testFails"].status, "failed")
        self.assertEqual(outcomes["GRDBTests.RowTests/testPasses"].status, "passed")


if __name__ == "__main__":
    unittest.main()
