#!/usr/bin/env bash
# Formats every tracked C++ file with the repository's .clang-format
# (clang-format 14, installed by tools/setup.sh).
#   tools/format.sh           rewrite the files in place
#   tools/format.sh --check   change nothing; fail listing the files that differ
#                             (tools/test.sh runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
CF=${CLANG_FORMAT:-$(command -v clang-format-14 || command -v clang-format || true)}
if [ -z "$CF" ]; then
  echo "tools/format.sh: clang-format-14 not found (tools/setup.sh installs it)" >&2
  exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
else  # an export without .git: the same folders, build trees left out
  mapfile -t files < <(find . -path ./build -prune -o \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) \
    -type f -print | sed 's|^\./||' | sort)
fi
if [ "${1:-}" = --check ]; then
  bad=()
  for f in "${files[@]}"; do
    "$CF" --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    echo "tools/format.sh: ${#bad[@]} file(s) differ from .clang-format (run tools/format.sh):" >&2
    printf '  %s\n' "${bad[@]}" >&2
    exit 1
  fi
  echo "tools/format.sh: ${#files[@]} files formatted" >&2
else
  "$CF" -i "${files[@]}"
fi
