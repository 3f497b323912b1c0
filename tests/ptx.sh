#!/bin/sh
# ptx.sh — the PTX examples of tests/ptx/ (nvcc's PTX for sm_90 and sm_75,
# checked in with the outputs of their C references) run bit-exact under
# both engines, with --lockstep 1, the defaults and a seeded schedule.
# NAME.run gives the launch: grid, block, shared (dynamic bytes), each
# pointer parameter (buf INDEX WIDTH COUNT in|out) and scalar (scalar
# INDEX VALUE), and the expected exit status (status N, default 0).
# NAME.inputs holds every pointer buffer's initial contents in order (the
# reference's `inputs` output), NAME.expect the written buffers after the
# launch (for a deadlock: the memory at the report).
set -u
: "${top_builddir:=$(pwd)}"
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
W="$top_builddir/src/warpemu"
HEX="$top_builddir/tests/ptx_hex"
D="$top_srcdir/tests/ptx"
T=$(mktemp -d "${TMPDIR:-/tmp}/ptxtest.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
# the compiled tier, where warpemu has it
JIT=0
"$W" info | grep -q '^Compiled tier: *LLVM' && JIT=1

# the PTX files the front end runs today (the others are checked by
# tests/bad/ptx_* for their "not supported" message)
NAMES=${PTX_NAMES:-"vec_add reduce_smem scan_hs histogram named_bar_pc deadlock_cross div_loop warp_shfl saxpy f64_narrow num_int num_f32 num_f64 num_ftz num_atomic num_misc
	bar_split bar_exit bar_thread bar_diverge bar_stuck switch_jt calls calls_local generic params_small warp_match globals"}
# tests/mpi.sh runs the launches under mpiexec (PTX_LAUNCHER), for the
# PTX of PTX_SMS, with each engine's defaults only (PTX_ENGINES_ONLY)
SMS=${PTX_SMS:-"sm90 sm75"}
LAUNCHER=${PTX_LAUNCHER:-}
# `ptx.sh --names`: the list above, one line (tests/mpi.sh takes it)
if [ "${1:-}" = --names ]; then echo $NAMES; exit 0; fi

# prepare NAME: the argument list in $T/NAME.args, the out list in $T/NAME.outs
prepare() {
	name=$1
	args="" outs="" line=1
	status=0
	: > "$T/$name.outs"
	while read -r kw a b c d; do
		case $kw in
		grid) args="$args --grid $a" ;;
		block) args="$args --block $a" ;;
		shared) args="$args --shared $a" ;;
		status) status=$a ;;
		scalar) args="$args --arg $a=$b" ;;
		buf)
			last=$((line + c - 1))
			sed -n "${line},${last}p" "$D/$name.inputs" | "$HEX" bin "$b" > "$T/$name.in$a"
			line=$((last + 1))
			args="$args --arg $a=@$T/$name.in$a"
			if [ "$d" = out ]; then
				echo "$a $b" >> "$T/$name.outs"
			fi ;;
		esac
	done < "$D/$name.run"
	echo "$args" > "$T/$name.args"
	echo "$status" > "$T/$name.status"
}

# run NAME SM MODE...: compare the written buffers with NAME.expect
check() {
	name=$1 sm=$2
	shift 2
	outargs=""
	while read -r i w; do
		outargs="$outargs --out $i=$T/out$i"
	done < "$T/$name.outs"
	# shellcheck disable=SC2046
	$LAUNCHER "$W" run "$D/$name.$sm.ptx" $(cat "$T/$name.args") $outargs --quiet "$@" \
		> "$T/stdout" 2> "$T/stderr" < /dev/null
	rc=$?
	want=$(cat "$T/$name.status")
	what="$name.$sm.ptx $*"
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $what: exit $rc, expected $want"
		sed 's/^/    /' "$T/stderr" | head -20
		fail=$((fail + 1))
		return
	fi
	: > "$T/got"
	while read -r i w; do
		if [ -f "$T/out$i" ]; then
			"$HEX" hex "$w" < "$T/out$i" >> "$T/got"
		elif [ "$want" = 5 ]; then
			# a deadlock writes no --out: the report is what is checked
			cp "$D/$name.expect" "$T/got"
		fi
		rm -f "$T/out$i"
	done < "$T/$name.outs"
	if ! cmp -s "$T/got" "$D/$name.expect"; then
		echo "FAIL: $what: output differs from $name.expect"
		diff "$T/got" "$D/$name.expect" | head -10
		fail=$((fail + 1))
		return
	fi
	pass=$((pass + 1))
}

for name in $NAMES; do
	prepare "$name"
	for sm in $SMS; do
		check "$name" "$sm"
		check "$name" "$sm" --engine warp-threads
		[ -n "${PTX_ENGINES_ONLY:-}" ] && continue
		check "$name" "$sm" --lockstep 1
		if [ "$JIT" = 1 ]; then
			# the compiled tier: every group setting's results are the
			# interpreter's (NAME.expect)
			check "$name" "$sm" --jit on
			check "$name" "$sm" --jit on --lockstep 32 --threads 1
		fi
		check "$name" "$sm" --threads 1 --schedule=seed:7
		check "$name" "$sm" --threads 1 --schedule=seed:12345 --engine warp-threads
	done
done
[ -n "${PTX_ENGINES_ONLY:-}" ] && { echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; exit; }

# NAME.report: lines the report of the default run must contain (SM
# stands for sm90 / sm75)
for name in $NAMES; do
	[ -f "$D/$name.report" ] || continue
	prepare "$name"
	for sm in sm90 sm75; do
		# shellcheck disable=SC2046
		"$W" run "$D/$name.$sm.ptx" $(cat "$T/$name.args") > "$T/stdout" 2> "$T/stderr"
		ok=1
		while IFS= read -r want; do
			want=$(echo "$want" | sed "s/SM/$sm/g")
			grep -qF -- "$want" "$T/stderr" || { ok=0; echo "missing in the report of $name.$sm.ptx: $want"; }
		done < "$D/$name.report"
		if [ $ok = 1 ]; then
			pass=$((pass + 1))
		else
			sed 's/^/    /' "$T/stderr" | head -20
			fail=$((fail + 1))
		fi
	done
done

# deadlock_cross: the report names both barriers, both warps and the PTX
# lines of the bar.sync each warp waits at
if echo "$NAMES" | grep -q deadlock_cross; then
	prepare deadlock_cross
	"$W" run "$D/deadlock_cross.sm90.ptx" $(cat "$T/deadlock_cross.args") > "$T/stdout" 2> "$T/stderr"
	rc=$?
	ok=1
	[ "$rc" = 5 ] || ok=0
	for want in "deadlock" "barrier 1" "barrier 2" "count 32 of 64" "deadlock_cross.sm90.ptx:45)" "deadlock_cross.sm90.ptx:36)" \
		"warp 0: blocked on barrier 1" "warp 1: blocked on barrier 2"; do
		grep -q "$want" "$T/stderr" || { ok=0; echo "missing in the report: $want"; }
	done
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: deadlock_cross report (exit $rc):"
		sed 's/^/    /' "$T/stderr" | head -30
		fail=$((fail + 1))
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
