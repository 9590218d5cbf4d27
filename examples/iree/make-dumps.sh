#!/usr/bin/env bash
# Regenerate the real IREE dumps under examples/iree/<name>/ from each program.mlir.
#
# For every example this compiles program.mlir with the pip package iree-base-compiler (3.13)
# and keeps the module IREE prints before each of the two runs of ElideAsyncCopies, the pass
# whose input streamopt's --elide-async-copies is designed for:
#
#   before-elide-1.mlir  the first run (right after conversion to the stream dialect)
#   before-elide-2.mlir  the second run (after affinity and lifetime refinement)
#
# The examples listed in DEBUGINFO_EXAMPLES also get before-elide-{1,2}.debuginfo.mlir, the same
# dumps printed with --mlir-print-debuginfo (locations and location aliases; file names are
# relative to this directory).
#
# Each dump is passed once through iree-opt, so the file is exactly what `iree-opt FILE` prints
# (the raw -mlir-print-ir-before text carries one extra trailing blank line).
#
# Devices are all `local` with distinct ordinals: identical devices would be folded into one and
# the transfers would vanish. The CPU target is generic (and the triple fixed) so the dumps do not
# depend on the machine that made them.
#
# The programs exported from JAX (their program.mlir) are written by make-programs.py; this
# script only compiles them.
#
# Usage: examples/iree/make-dumps.sh [NAME...]   (default: every example)
set -euo pipefail
cd "$(dirname "$0")"

IREE_COMPILE=${IREE_COMPILE:-iree-compile}
IREE_OPT=${IREE_OPT:-iree-opt}

COMMON_FLAGS=(
  --iree-hal-local-target-device-backends=llvm-cpu
  --iree-llvmcpu-target-cpu=generic
  --iree-llvmcpu-target-triple=x86_64-unknown-unknown-eabi-elf
  --mlir-print-ir-before=iree-stream-elide-async-copies
  --compile-to=stream
  -o /dev/null
)
DEBUGINFO_EXAMPLES=(two-devices control-flow)

# devices_for NAME: one `local` device per device the program names (@dev_a .. @dev_d, at
# least dev_a), each with its own ordinal.
devices_for() {
  local letter ordinal=0
  for letter in a b c d; do
    if [[ $letter == a ]] || grep -q "@dev_$letter\b" "$1/program.mlir"; then
      echo "--iree-hal-target-device=dev_$letter=local[$ordinal]"
      ordinal=$((ordinal + 1))
    fi
  done
}

# compile NAME SUFFIX [FLAGS...]: write NAME/before-elide-{1,2}SUFFIX.mlir.
compile() {
  local name=$1 suffix=$2
  shift 2
  local work
  work=$(mktemp -d)
  # shellcheck disable=SC2046  # the device flags are meant to split into words
  "$IREE_COMPILE" "$name/program.mlir" $(devices_for "$name") "${COMMON_FLAGS[@]}" "$@" \
    2>"$work/stderr"
  # One file per `// -----// IR Dump Before ...` header; the header line itself is dropped.
  awk -v out="$work/dump" '
    /^\/\/ -----\/\/ IR Dump Before / { n++; next }
    n > 0 { print > (out "-" n ".mlir") }
  ' "$work/stderr"
  local count
  count=$(find "$work" -name 'dump-*.mlir' | wc -l)
  if [[ $count -ne 2 ]]; then
    echo "make-dumps: $name: expected 2 dumps, got $count" >&2
    cat "$work/stderr" >&2
    exit 1
  fi
  for i in 1 2; do
    "$IREE_OPT" "$@" "$work/dump-$i.mlir" >"$name/before-elide-$i$suffix.mlir"
  done
  rm -rf "$work"
  echo "$name/before-elide-{1,2}$suffix.mlir: $(cat "$name"/before-elide-[12]"$suffix".mlir | wc -l) lines"
}

make_dumps() {
  local name=$1
  compile "$name" ""
  if [[ " ${DEBUGINFO_EXAMPLES[*]} " == *" $name "* ]]; then
    compile "$name" .debuginfo --mlir-print-debuginfo
  fi
}

if [[ $# -eq 0 ]]; then
  set -- */program.mlir
  set -- "${@%/program.mlir}"
fi
for name in "$@"; do
  make_dumps "$name"
done
# The README's example is the second dump of the two-device program.
cp two-devices/before-elide-2.mlir ../two-devices.mlir
