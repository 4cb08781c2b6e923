#!/usr/bin/env python3
"""Checks the length of every Rust function in the workspace's crates.

A function counts from the line of its `fn` keyword to the line of its closing brace. A source
function (under crates/*/src, outside `#[cfg(test)]` modules and `#[test]` functions) may have
at most 120 lines; a test function (anything under crates/*/tests, a `#[test]` function, or a
function inside a `#[cfg(test)]` module) at most 150. Every longer function is listed, as
`path:line name (N lines, limit L)`, and the script exits with 1.

Usage: scripts/fn-lengths.py [ROOT]   (ROOT defaults to the repository)
"""

import pathlib
import re
import sys

SOURCE_LIMIT = 120
TEST_LIMIT = 150

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def strip(text):
    """The text with comments, strings and character literals blanked out (newlines kept),
    so that braces and keywords are only the code's."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif raw_string_at(text, i):
            j = raw_string_end(text, i)
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' or (c == "b" and text.startswith('b"', i) and not ident_before(text, i)):
            j = text.index('"', i) + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(blank(text[i : j + 1]))
            i = j + 1
        elif c == "'":
            m = re.match(r"'(\\(x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|.)|[^\\'\n])'", text[i:])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:  # a lifetime or a label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def closing_bracket(code, i):
    """The index of the `]` that closes the `[` at `i`."""
    nesting = 0
    for j in range(i, len(code)):
        if code[j] == "[":
            nesting += 1
        elif code[j] == "]":
            nesting -= 1
            if nesting == 0:
                return j
    return len(code) - 1


def ident_before(text, i):
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")


def raw_string_at(text, i):
    if ident_before(text, i):
        return False
    return re.match(r'b?r#*"', text[i : i + 260]) is not None


def raw_string_end(text, i):
    m = re.match(r'b?r(#*)"', text[i:])
    close = '"' + m.group(1)
    j = text.find(close, i + len(m.group(0)))
    return len(text) if j < 0 else j + len(close)


def blank(s):
    return "".join("\n" if ch == "\n" else " " for ch in s)


def functions(code):
    """Yields (name, first line, last line, is_test) for every function with a body."""
    line_of = []
    line = 1
    for ch in code:
        line_of.append(line)
        if ch == "\n":
            line += 1
    # The brace depths at which a `#[cfg(test)]` module or a `#[test]` function is open.
    test_scopes = []
    depth = 0
    pending_test_attr = False
    i, n = 0, len(code)
    open_fns = []  # (name, start, depth at its body, is_test)
    while i < n:
        c = code[i]
        if c == "#" and code.startswith("#[", i):
            j = closing_bracket(code, i + 1)
            attr = re.sub(r"\s+", "", code[i : j + 1])
            if attr in ("#[test]", "#[cfg(test)]", "#[tokio::test]") or attr.startswith(
                ("#[tokio::test(", "#[test_case")
            ):
                pending_test_attr = True
            i = j + 1
            continue
        if c == "{":
            depth += 1
            pending_test_attr = False
        elif c == "}":
            if open_fns and open_fns[-1][2] == depth:
                name, start, _, is_test = open_fns.pop()
                yield name, line_of[start], line_of[i], is_test
            while test_scopes and test_scopes[-1] >= depth:
                test_scopes.pop()
            depth -= 1
        elif c == ";":
            pending_test_attr = False
        elif IDENT.match(code, i) and not ident_before(code, i):
            word = IDENT.match(code, i).group(0)
            if word == "mod" and pending_test_attr:
                # a module with a body here (one in a file of its own is found by its file)
                if re.compile(r"mod\s+\w+\s*\{").match(code, i):
                    test_scopes.append(depth + 1)
                pending_test_attr = False
            elif word == "fn":
                m = re.compile(r"fn\s+([A-Za-z_][A-Za-z0-9_]*)").match(code, i)
                body = body_start(code, i)
                if m and body is not None:
                    is_test = pending_test_attr or bool(test_scopes)
                    open_fns.append((m.group(1), i, depth + 1, is_test))
                    if pending_test_attr:
                        test_scopes.append(depth + 1)
                    depth += 1
                    pending_test_attr = False
                    i = body + 1
                    continue
                pending_test_attr = False
            i += len(word)
            continue
        i += 1


def body_start(code, i):
    """The index of the `{` that opens the body of the `fn` at `i`, or None for a declaration
    without a body."""
    nesting = 0  # open parentheses and brackets of the signature
    for j in range(i + 2, len(code)):
        c = code[j]
        if c in "([":
            nesting += 1
        elif c in ")]":
            nesting -= 1
        elif c == "{" and nesting == 0:
            return j
        elif c == ";" and nesting == 0:
            return None
    return None


def test_module_files(root, files):
    """The files of modules declared `#[cfg(test)] mod NAME;` (test code in a file of its own)."""
    found = set()
    for rel, code in files.items():
        path = root / rel
        here = path.parent if path.name in ("mod.rs", "lib.rs", "main.rs") else path.with_suffix("")
        for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code):
            for candidate in (here / f"{m.group(1)}.rs", here / m.group(1) / "mod.rs"):
                if candidate.exists():
                    found.add(candidate.relative_to(root).as_posix())
    return found


def rust_files(root):
    for path in sorted((root / "crates").glob("*/**/*.rs")):
        rel = path.relative_to(root).as_posix()
        if "/target/" in rel:
            continue
        yield rel, path


def main(argv):
    root = pathlib.Path(argv[0] if argv else pathlib.Path(__file__).resolve().parent.parent)
    over = []
    files = {rel: strip(path.read_text(encoding="utf-8")) for rel, path in rust_files(root)}
    test_files = test_module_files(root, files)
    for rel, code in files.items():
        in_tests = "/tests/" in rel or rel in test_files
        for name, first, last, is_test in functions(code):
            limit = TEST_LIMIT if (in_tests or is_test) else SOURCE_LIMIT
            length = last - first + 1
            if length > limit:
                over.append(f"{rel}:{first} {name} ({length} lines, limit {limit})")
    for row in over:
        print(row)
    if over:
        print(
            f"fn-lengths: {len(over)} function(s) over the limit "
            f"({SOURCE_LIMIT} lines in source, {TEST_LIMIT} in tests)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
