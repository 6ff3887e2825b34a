#!/usr/bin/env python3
"""Check that every relative link in the repository's Markdown files resolves.

    python3 tools/check_doc_links.py   # exit 1 listing the broken links

A link [text](path) or ![alt](path) must name an existing file or folder
(relative to the Markdown file); a #fragment into a Markdown file must match
one of its headings as GitHub turns them into anchors (lower case,
punctuation dropped, spaces to '-', repeats numbered -1, -2, ...). Links with
a scheme (https:, mailto:) and text inside code fences are not checked.
Python 3 standard library only.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def markdown_files():
    out = subprocess.check_output(["git", "ls-files", "-co", "--exclude-standard", "*.md"],
                                  cwd=ROOT, text=True)
    return [f for f in out.split() if os.path.exists(os.path.join(ROOT, f))]


def anchors(path):
    found, counts, fenced = set(), {}, False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
            if fenced:
                continue
            m = re.match(r"^(#+)\s+(.*?)\s*$", line)
            if m:
                slug = re.sub(r"[^\w\- ]", "", m.group(2).lower()).replace(" ", "-")
                n = counts.get(slug, 0)
                counts[slug] = n + 1
                found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def main():
    bad = []
    for rel in markdown_files():
        path = os.path.join(ROOT, rel)
        with open(path, encoding="utf-8") as f:
            text = re.sub(r"```.*?```", "", f.read(), flags=re.S)
        for m in re.finditer(r"!?\[[^\]]*\]\(([^)\s]+)\)", text):
            url = m.group(1)
            if re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", url):
                continue
            target, _, frag = url.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
            if not os.path.exists(dest):
                bad.append(f"{rel}: {url}: no such file")
            elif frag and dest.endswith(".md") and frag not in anchors(dest):
                bad.append(f"{rel}: {url}: no such heading")
    for b in bad:
        print(b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
