"""Scripts/api-diff.py on small fixtures: the symbols of a symbol graph, the
comparison of GRDB's with GRDBLite's (an excluded symbol, a stale
exclusion, an unlisted addition), the committed lists, and the figures of
the porting guide."""

import json
import os
import tempfile
import textwrap
import unittest

from support import load

diff = load("api-diff")


def symbol(kind, *path):
    return {"kind": {"identifier": kind}, "pathComponents": list(path)}


class GraphSymbolsTests(unittest.TestCase):
    def test_kinds_and_paths(self):
        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "GRDB.symbols.json"), "w") as out:
                json.dump({"symbols": [
                    symbol("swift.method", "Cursor", "dropFirst()"),
                    symbol("swift.type.method", "Cursor", "dropFirst()"),
                    symbol("swift.type.property", "Inflections", "default"),
                    symbol("swift.func.op", "SQLSubquery", "==(_:_:)"),
                    symbol("swift.struct", "Row"),
                ]}, out)
            with open(os.path.join(folder, "GRDB@Swift.symbols.json"), "w") as out:
                json.dump({"symbols": [symbol("swift.method", "Optional", "databaseValue")]}, out)
            with open(os.path.join(folder, "notes.txt"), "w") as out:
                out.write("not a graph")
            self.assertEqual(diff.graph_symbols(folder), {
                "method Cursor.dropFirst()",
                "property Inflections.default",
                "func.op SQLSubquery.==(_:_:)",
                "struct Row",
                "method Optional.databaseValue",
            })


class CompareTests(unittest.TestCase):
    def test_an_excluded_symbol_is_missing_but_excused(self):
        grdb = {"struct Row", "method DatabaseCursor.next()", "method Row.old()"}
        lite = {"struct Row", "method Statement.execute(values:)", "method Row.mine()"}
        exclusions = {"method DatabaseCursor.next()": "GRDB's internals", "method Row.gone()": "stale"}
        additions = {"method Statement.execute(values:)": ("addition", "why"), "struct Gone": ("addition", "why")}
        missing, unexcused, stale, extra, unlisted, stale_additions = diff.compare(grdb, lite, exclusions, additions)
        self.assertEqual(missing, ["method DatabaseCursor.next()", "method Row.old()"])
        self.assertEqual(unexcused, ["method Row.old()"])
        self.assertEqual(stale, ["method Row.gone()"])
        self.assertEqual(extra, ["method Row.mine()", "method Statement.execute(values:)"])
        self.assertEqual(unlisted, ["method Row.mine()"])
        self.assertEqual(stale_additions, ["struct Gone"])


class ListsTests(unittest.TestCase):
    def read(self, attribute, reader, text):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "list.tsv")
            with open(path, "w") as out:
                out.write(text)
            saved = getattr(diff, attribute)
            setattr(diff, attribute, path)
            try:
                return reader()
            finally:
                setattr(diff, attribute, saved)

    def test_exclusions_need_a_reason(self):
        self.assertEqual(
            self.read("EXCLUSIONS", diff.read_exclusions, "# comment\n\nmethod A.b()\tGRDB's internals\n"),
            {"method A.b()": "GRDB's internals"})
        with self.assertRaises(SystemExit):
            self.read("EXCLUSIONS", diff.read_exclusions, "method A.b()\t \n")

    def test_additions_need_a_known_category_and_a_reason(self):
        self.assertEqual(
            self.read("ADDITIONS", diff.read_additions, "struct A\tcapable-sqlite\tGRDB: SQLITE_ENABLE_SNAPSHOT\n"),
            {"struct A": ("capable-sqlite", "GRDB: SQLITE_ENABLE_SNAPSHOT")})
        with self.assertRaises(SystemExit):
            self.read("ADDITIONS", diff.read_additions, "struct A\tmine\treason\n")


SURFACE = textwrap.dedent("""\
    # Written by Scripts/api-diff.sh: every GRDB 7.10 and GRDBLite public symbol (kind, path).
    symbol\tstatus
    method A.a()\tpresent
    method A.b()\tpresent
    method A.c()\tpresent
    method DatabaseCursor.next()\texcluded
    method A.d()\tmissing
    method A.mine()\tgrdblite-only
    """)

GUIDE = textwrap.dedent("""\
    - The symbols:
      <!-- api-surface-figures: written by Scripts/api-diff.sh -->
      stale
      <!-- /api-surface-figures -->
      The one left out.
    """)


class FiguresTests(unittest.TestCase):
    def test_excluded_and_missing_symbols_are_grdbs_and_not_present(self):
        with tempfile.TemporaryDirectory() as folder:
            surface = os.path.join(folder, "api-surface.tsv")
            guide = os.path.join(folder, "guide.md")
            with open(surface, "w") as out:
                out.write(SURFACE)
            with open(guide, "w") as out:
                out.write(GUIDE)
            statuses = diff.read_surface(surface)
            self.assertEqual(diff.surface_counts(statuses), (3, 5))
            self.assertFalse(diff.update_figures(statuses, check=True, path=guide))
            diff.update_figures(statuses, path=guide)
            self.assertTrue(diff.update_figures(statuses, check=True, path=guide))
            with open(guide) as source:
                self.assertEqual(source.read(), GUIDE.replace(
                    "  stale\n", "  3 of GRDB 7.10's 5 Linux public symbols are in GRDBLite (60.0%).\n"))

    def test_percentages_are_rounded_down(self):
        self.assertEqual(diff.percent_down(5233, 5234), "99.9")
        self.assertEqual(diff.percent_down(2, 3), "66.6")


if __name__ == "__main__":
    unittest.main()
