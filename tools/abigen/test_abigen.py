#!/usr/bin/env python3
"""Proves that the drift check fails, naming the file: on a copy of every file abigen reads or
writes, in a temporary directory, each case below changes one file and runs `abigen --check`;
the check must fail and name that file (and pass on the untouched copy). Run by make abigen-check.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
ABIGEN = os.path.join(HERE, "abigen.py")


def run(*args):
    return subprocess.run([sys.executable, ABIGEN, *args], capture_output=True, text=True)


class DocCommentTests(unittest.TestCase):
    def test_every_comment_closes_and_fits(self):
        sys.path.insert(0, HERE)
        from table import doc_comment
        for style, opener, closer in (("block", "/**", "*/"), ("c", "/*", "*/"), ("line", "///", "")):
            for length in range(60, 260):
                text = " ".join(["word"] * (length // 5)) + "x" * (length % 5)
                for indent in ("", "    "):
                    comment = doc_comment(text, indent, style)
                    self.assertTrue(comment.lstrip().startswith(opener), comment)
                    self.assertTrue(comment.endswith(closer), f"{style} comment of {length} left open:\n{comment}")
                    if closer:
                        self.assertEqual(comment.count(closer), 1, comment)
                    self.assertTrue(all(len(line) <= 120 for line in comment.split("\n")), comment)


class DriftCheckTests(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="abigen-test-")
        self.generated = run("--list", "--root", ROOT).stdout.split()
        read = run("--list-read", "--root", ROOT).stdout.split()
        self.assertTrue(self.generated and read)
        paths = self.generated + read + [os.path.relpath(os.path.join(d, f), ROOT)
                                         for d, _, files in os.walk(os.path.join(ROOT, "Sources/PayHandoffABI")) for f in files]
        paths += ["bindings/react-native/src/PayHandoff.ts", "bindings/web/src/library.ts"]
        for path in set(paths):
            os.makedirs(os.path.dirname(os.path.join(self.root, path)), exist_ok=True)
            shutil.copy(os.path.join(ROOT, path), os.path.join(self.root, path))

    def tearDown(self):
        shutil.rmtree(self.root)

    def edit(self, path, old, new):
        full = os.path.join(self.root, path)
        with open(full, encoding="utf-8") as f:
            text = f.read()
        self.assertIn(old, text, f"{path} no longer holds {old!r}: update this test")
        with open(full, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new, 1))

    def check_fails_naming(self, path, *also):
        result = run("--check", "--root", self.root)
        self.assertNotEqual(result.returncode, 0, f"the check passed although {path} was changed")
        self.assertIn(f"abigen: {path}:", result.stderr)
        for text in also:
            self.assertIn(text, result.stderr)
        return result.stderr

    def test_untouched_copy_passes(self):
        result = run("--check", "--root", self.root)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_edited_generated_file_is_named_with_a_diff(self):
        path = "bindings/android/src/main/kotlin/com/payhandoff/Native.kt"
        self.edit(path, "external fun posBuildUrl(", "external fun posBuildURL(")
        self.check_fails_naming(path, "differs from what tools/abigen writes now", "-    @JvmStatic external fun posBuildURL(",
                                "+    @JvmStatic external fun posBuildUrl(")

    def test_every_generated_file_is_checked(self):
        # package.json: only its version member is generated (test_package_version_is_checked).
        for path in [p for p in self.generated if not p.endswith("package.json")]:
            full = os.path.join(self.root, path)
            with open(full, encoding="utf-8") as f:
                text = f.read()
            with open(full, "a", encoding="utf-8") as f:
                f.write("\n")
            self.check_fails_naming(path)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)

    def test_deleted_generated_file_is_named(self):
        os.remove(os.path.join(self.root, "bindings/web/src/calls.ts"))
        self.check_fails_naming("bindings/web/src/calls.ts", "missing")

    def test_package_version_is_checked(self):
        self.edit("bindings/web/package.json", '"version": "', '"version": "9')
        self.check_fails_naming("bindings/web/package.json")

    def test_header_prototype_must_match_the_table(self):
        self.edit("include/payhandoff.h", "payhandoff_pos_refund_check(const char *input_json, char **out)",
                  "payhandoff_pos_refund_check(const char *input_json, int64_t now_ms, char **out)")
        self.check_fails_naming("include/payhandoff.h", "payhandoff_pos_refund_check")

    def test_header_function_missing_from_the_table_is_named(self):
        self.edit("include/payhandoff.h", "PAYHANDOFF_API void payhandoff_string_free(char *text);",
                  "PAYHANDOFF_API void payhandoff_string_free(char *text);\n"
                  "PAYHANDOFF_API int32_t payhandoff_extra(const char *a, char **out);")
        self.check_fails_naming("include/payhandoff.h", "payhandoff_extra is declared but not in abi/payhandoff.json")

    def test_header_abi_version_must_match(self):
        self.edit("include/payhandoff.h", "#define PAYHANDOFF_ABI_VERSION ", "#define PAYHANDOFF_ABI_VERSION 9")
        self.check_fails_naming("include/payhandoff.h", "PAYHANDOFF_ABI_VERSION")

    def test_header_limit_must_match_the_table(self):
        self.edit("include/payhandoff.h", "#define PAYHANDOFF_MAX_SNAPSHOT_BYTES 262144", "#define PAYHANDOFF_MAX_SNAPSHOT_BYTES 65536")
        self.check_fails_naming("include/payhandoff.h", "PAYHANDOFF_MAX_SNAPSHOT_BYTES is 65536, the table's "
                                "limits.PAYHANDOFF_MAX_SNAPSHOT_BYTES is 262144")

    def test_header_limit_missing_or_extra_is_named(self):
        self.edit("include/payhandoff.h", "#define PAYHANDOFF_MAX_JSON_DEPTH 64", "#define PAYHANDOFF_MAX_NESTING 64")
        self.check_fails_naming("include/payhandoff.h", "no '#define PAYHANDOFF_MAX_JSON_DEPTH 64'",
                                "PAYHANDOFF_MAX_NESTING is defined but not in abi/payhandoff.json's limits")

    def test_table_limit_reaches_the_generated_constants(self):
        self.edit("abi/payhandoff.json", '"PAYHANDOFF_MAX_URL_BYTES": {"value": 8192', '"PAYHANDOFF_MAX_URL_BYTES": {"value": 4096')
        stderr = run("--check", "--root", self.root).stderr
        for path in ("bindings/android/src/main/kotlin/com/payhandoff/Versions.kt", "bindings/react-native/src/versions.ts"):
            self.assertIn(f"abigen: {path}:", stderr)
        self.assertIn("+export const MAX_URL_BYTES = 4096;", stderr)
        self.assertIn("include/payhandoff.h: PAYHANDOFF_MAX_URL_BYTES is 8192, the table's limits.PAYHANDOFF_MAX_URL_BYTES is 4096",
                      stderr)

    def test_bad_limit_is_refused_naming_it(self):
        self.edit("abi/payhandoff.json", '"PAYHANDOFF_MAX_JSON_DEPTH": {"value": 64', '"PAYHANDOFF_MAX_JSON_DEPTH": {"value": "64"')
        result = run("--check", "--root", self.root)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("limits.PAYHANDOFF_MAX_JSON_DEPTH: value must be a positive integer", result.stderr)

    def test_cdecl_exports_must_match(self):
        self.edit("Sources/PayHandoffABI/Exports.swift", '@_cdecl("payhandoff_pos_refund_check")',
                  '@_cdecl("payhandoff_pos_refund_checks")')
        stderr = self.check_fails_naming("Sources/PayHandoffABI/Exports.swift", "payhandoff_pos_refund_checks")
        self.assertIn('no @_cdecl("payhandoff_pos_refund_check")', stderr)

    def test_literal_version_in_a_binding_is_named(self):
        self.edit("bindings/react-native/src/PayHandoff.ts", "export { ABI_VERSION, ", "export const ABI_VERSION = 2;\nexport { ")
        self.check_fails_naming("bindings/react-native/src/PayHandoff.ts", "writes the ABI version literally")

    def test_version_mention_in_docs_is_named(self):
        self.edit("docs/abi.md", "), library ", "), library 1")
        self.check_fails_naming("docs/abi.md", "mentions library version")

    def test_table_change_reaches_every_binding(self):
        self.edit("abi/payhandoff.json", '"abi_version": ', '"abi_version": 1')
        stderr = run("--check", "--root", self.root).stderr
        for path in ("abi/payhandoff.map", "Sources/PayHandoffABI/LibraryVersion.swift",
                     "bindings/android/src/main/kotlin/com/payhandoff/Versions.kt", "bindings/react-native/src/versions.ts",
                     "include/payhandoff.h"):
            self.assertIn(f"abigen: {path}:", stderr)
        written = run("--write", "--root", self.root)
        self.assertIn("abigen: wrote abi/android.map", written.stdout)
        abi = run("--get", "abi_version", "--root", ROOT).stdout.strip()
        self.assertIn(f"include/payhandoff.h: PAYHANDOFF_ABI_VERSION is {abi}, the table's abi_version is 1{abi}", written.stderr)

    def test_bad_table_is_refused_naming_the_function(self):
        self.edit("abi/payhandoff.json", '"kind": "handle",', '"kind": "stateless",')
        result = run("--check", "--root", self.root)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("payhandoff_coordinator_send: its parameters", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
