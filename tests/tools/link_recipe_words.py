#!/usr/bin/env python3
"""link_recipe_words.py: what simthread adds to a compile or link command,
in words that do not depend on how the command spells them.

  link_recipe_words.py compile|link --command FILE [--baseline FILE]
                       --cwd DIR --lib DIR --include DIR...

FILE holds one shell command (a `: && cmd && ...` line from `ninja -t
commands` is cut down to cmd). The words simthread adds are those of
--command that --baseline (the same program built without simthread) does
not have; without --baseline every word is one simthread added (what
`sim-clang++ --showme:compile` or `--showme:link` prints). Paths are made
absolute against --cwd, and --lib and each --include become <lib> and
<include>, so a build tree and an installed prefix compare equal.

Printed, one a line:
  compile: `include <include>` (-I and -isystem alike) and `flag WORD`
  link:    `whole-archive PATH` or `archive PATH`, `dynamic-list PATH` and
           `library NAME` (-lNAME, or a path to libNAME.a or libNAME.so*
           outside <lib>), and `word WORD` for anything else: each once,
           grouped in that order of kinds, and within a kind in the order
           they come. -Xlinker X and -Wl,X,Y are the linker words
           they stand for; --push-state/--pop-state and
           --whole-archive/--no-whole-archive decide whether an archive is
           linked whole.
"""
import argparse
import os
import re
import shlex
import sys
from collections import Counter


def command_words(path):
    text = open(path).read().strip()
    # ninja -t commands: ": && clang++ ... && :" or "... && cd ... && cmake ...".
    if text.startswith(": && "):
        text = text[len(": && "):]
    text = text.split(" && ")[0]
    words = shlex.split(text)
    # Each target's own files (CMakeFiles/probe_X.dir/..., -o probe_X) are
    # named after it: one name for all, so the baseline's cancel them.
    return [re.sub(r"probe_[A-Za-z_]+", "probe", w) for w in words]


def added(words, baseline):
    left = Counter(baseline)
    out = []
    for word in words:
        if left[word] > 0:
            left[word] -= 1
        else:
            out.append(word)
    return out


class Paths:
    def __init__(self, cwd, lib, includes):
        self.cwd = cwd
        self.lib = os.path.normpath(lib)
        self.includes = [os.path.normpath(i) for i in includes]

    def name(self, path):
        if "/" not in path:
            return path
        full = os.path.normpath(os.path.join(self.cwd, path))
        if full == self.lib or full.startswith(self.lib + "/"):
            return "<lib>" + full[len(self.lib):]
        for include in self.includes:
            if full == include or full.startswith(include + "/"):
                return "<include>" + full[len(include):]
        return full

    def in_lib(self, path):
        return self.name(path).startswith("<lib>/")


def compile_lines(words, paths):
    lines = []
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-I", "-isystem") and i + 1 < len(words):
            lines.append("include " + paths.name(words[i + 1]))
            i += 2
            continue
        if word.startswith("-isystem"):
            lines.append("include " + paths.name(word[len("-isystem"):]))
        elif word.startswith("-I"):
            lines.append("include " + paths.name(word[2:]))
        elif "=" in word:
            key, value = word.split("=", 1)
            lines.append("flag %s=%s" % (key, paths.name(value)))
        else:
            lines.append("flag " + word)
        i += 1
    return sorted(set(lines))


def link_lines(words, paths):
    # Linker words first: -Wl,a,b and -Xlinker a become ("ld", a), ("ld", b).
    items = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "-Xlinker" and i + 1 < len(words):
            items.append(("ld", words[i + 1]))
            i += 2
            continue
        if word.startswith("-Wl,"):
            items.extend(("ld", part) for part in word[4:].split(","))
        else:
            items.append(("driver", word))
        i += 1

    lines = []
    whole = False
    states = []
    for kind, word in items:
        if kind == "ld":
            if word == "--whole-archive":
                whole = True
            elif word == "--no-whole-archive":
                whole = False
            elif word == "--push-state":
                states.append(whole)
            elif word == "--pop-state":
                whole = states.pop() if states else False
            elif word.startswith("--dynamic-list="):
                lines.append("dynamic-list " + paths.name(word.split("=", 1)[1]))
            else:
                lines.append("word -Wl," + word)
            continue
        match = re.fullmatch(r"(?:.*/)?lib([^/]+?)\.(?:a|so(?:\.[0-9.]+)?)", word)
        if word.startswith("-l"):
            lines.append("library " + word[2:])
        elif match and paths.in_lib(word):
            lines.append(("whole-archive " if whole else "archive ") + paths.name(word))
        elif match:
            lines.append("library " + match.group(1))
        else:
            lines.append("word " + paths.name(word))
    # Each once, and by kind: ld reads --dynamic-list wherever it stands, so
    # only the order within a kind means anything.
    seen = set()
    lines = [line for line in lines if not (line in seen or seen.add(line))]
    kinds = ["whole-archive", "archive", "dynamic-list", "library", "word"]
    return sorted(lines, key=lambda line: kinds.index(line.split(" ", 1)[0]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["compile", "link"])
    parser.add_argument("--command", required=True)
    parser.add_argument("--baseline")
    parser.add_argument("--cwd", default=os.getcwd())
    parser.add_argument("--lib", required=True)
    parser.add_argument("--include", action="append", default=[])
    args = parser.parse_args()

    words = command_words(args.command)
    if args.baseline:
        words = added(words, command_words(args.baseline))
    paths = Paths(args.cwd, args.lib, args.include)
    lines = compile_lines(words, paths) if args.mode == "compile" else link_lines(words, paths)
    sys.stdout.write("".join(line + "\n" for line in lines))


if __name__ == "__main__":
    main()
