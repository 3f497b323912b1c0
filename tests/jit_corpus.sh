#!/bin/sh
# shellcheck disable=SC2086 # (the launch's arguments are words)
# The compiled tier against the interpreter on the deadlock corpus
# (tests/deadlock/*.we: barrier misuse, intra-warp deadlocks of BSYNC and
# WARPSYNC, divergent branches around barriers, watchdogs): each kernel
# launched as its header says, on the scheduler engine with one worker,
# with --jit off and --jit on (its warp function and blocks), in CTA
# batches and one CTA at a time (--batch 1: CTAs of one warp run the warp
# function from their start), must give the same exit status, the same
# report and counters on stderr, and the same bytes of its buffer.
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${top_builddir:-$src}
. "$src/tests/lib.sh"
jit_setup jit_corpus.sh
pass=0 fail=0 wfn=0
# (the launch's own lines: its time and what the compiled tier did)
strip() { grep -v -e '^warpemu: [0-9.]* s, ' -e '^warpemu: jit' "$1"; }
for f in "$src"/tests/deadlock/*.we; do
	name=$(basename "$f" .we)
	head=$(sed -n 's|^// launch: *||p' "$f" | head -n 1)
	args='' out=''
	for w in $head; do
		case $w in
		grid=*) args="$args --grid ${w#grid=}" ;;
		block=*) args="$args --block ${w#block=}" ;;
		max_instructions=*) args="$args --max-instructions ${w#max_instructions=}" ;;
		out=buf:*) args="$args --arg out=zeros:${w#out=buf:}"; out=1 ;;
		esac
	done
	for batch in 0 1; do
		for jit in off on; do
			o=
			[ -n "$out" ] && o="--out out=$tmp/$jit.bin"
			"$we" run "$f" $args --threads 1 --placement none --batch $batch --jit $jit --timeout 20 $o \
				> "$tmp/$jit.out" 2> "$tmp/$jit.err"
			echo $? > "$tmp/$jit.st"
		done
		what="$name, batch $batch"
		if ! cmp -s "$tmp/off.st" "$tmp/on.st"; then
			fail=$((fail + 1)); echo "FAIL: $what: exit status $(cat "$tmp/off.st") off, $(cat "$tmp/on.st") on"
		elif [ "$(strip "$tmp/off.err")" != "$(strip "$tmp/on.err")" ]; then
			fail=$((fail + 1)); echo "FAIL: $what: stderr differs"; diff "$tmp/off.err" "$tmp/on.err" | head -10
		elif [ -n "$out" ] && ! cmp -s "$tmp/off.bin" "$tmp/on.bin"; then
			fail=$((fail + 1)); echo "FAIL: $what: buffer differs"
		else
			pass=$((pass + 1))
			grep -q '^warpemu: jit: .* warp function' "$tmp/on.err" && wfn=$((wfn + 1))
		fi
	done
done
echo "jit_corpus.sh: $pass passed, $fail failed; $wfn of them ran with a compiled warp function"
# (most of the corpus has blocks and branches: the test must reach them)
[ "$wfn" -ge 50 ] || { echo "FAIL: only $wfn runs had a warp function"; fail=$((fail + 1)); }
[ "$fail" -eq 0 ]
