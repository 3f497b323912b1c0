#!/bin/sh
# ptx.sh — the PTX examples of tests/ptx/ (nvcc's PTX for sm_90 and sm_75,
# checked in with the outputs of their C references) run bit-exact under
# both engines, with --lockstep 1, the defaults and a seeded schedule.
# NAME.run gives the launch: grid, block, shared (dynamic bytes), each
# pointer parameter (buf INDEX WIDTH COUNT in|out), scalar or aggregate
# (scalar INDEX VALUE), --buffer for an aggregate's ptr:NAME field
# (buffer NAME WIDTH COUNT in|out), and the expected exit status (status
# N, default 0).
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
	bar_split bar_exit bar_thread bar_diverge bar_stuck switch_jt calls calls_local generic params_small params_f64 warp_match globals
	warp_scan bitonic matmul_tiled cas_loops coop_groups grid3d prodcons_arv bar_overfull early_ret
	warp_vote fence_last structs structs_call grid_constant flag_release generic_const"}
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
		buf|buffer)
			last=$((line + c - 1))
			sed -n "${line},${last}p" "$D/$name.inputs" | "$HEX" bin "$b" > "$T/$name.in$a"
			line=$((last + 1))
			if [ "$kw" = buf ]; then
				args="$args --arg $a=@$T/$name.in$a"
			else
				args="$args --buffer $a=@$T/$name.in$a"
			fi
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

# --check (races, uninitialised reads, barriers) finds no hazard in the
# correct kernels written for issue 16, generic accesses, num.isa's
# atomics and flags handed over by strong loads and stores included
# (races_clean.sh has the examples)
CHECKED=${PTX_CHECKED:-"warp_scan bitonic matmul_tiled cas_loops coop_groups grid3d prodcons_arv early_ret
	warp_vote fence_last flag_release generic calls calls_local globals num_atomic"}
for name in $CHECKED; do
	case " $(echo $NAMES) " in *" $name "*) ;; *) continue ;; esac
	prepare "$name"
	for sm in sm90 sm75; do
		for eng in scheduler warp-threads; do
			# shellcheck disable=SC2046
			"$W" run "$D/$name.$sm.ptx" $(cat "$T/$name.args") --check --engine "$eng" --quiet \
				> "$T/stdout" 2>&1
			if [ "$(grep -c 'check: ' "$T/stdout")" = 1 ] && grep -q 'check: 0 hazards$' "$T/stdout"; then
				pass=$((pass + 1))
			else
				echo "FAIL: $name.$sm.ptx --check --engine $eng: not silent"
				head -5 "$T/stdout" | sed 's/^/    /'
				fail=$((fail + 1))
			fi
		done
	done
done

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

# report WHAT STATUS PTX ARGS... -- TEXT...: `warpemu run PTX ARGS` exits
# with STATUS and its report holds every TEXT
report() {
	what=$1 want=$2 f=$3
	shift 3
	args=""
	while [ "$1" != -- ]; do args="$args $1"; shift; done
	shift
	# shellcheck disable=SC2086
	"$W" run "$f" $args > "$T/stdout" 2> "$T/stderr"
	rc=$?
	ok=1
	[ "$rc" = "$want" ] || ok=0
	for text in "$@"; do
		grep -qF -- "$text" "$T/stderr" || { ok=0; echo "missing in the report: $text"; }
	done
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: $what (exit $rc):"
		sed 's/^/    /' "$T/stderr" | head -30
		fail=$((fail + 1))
	fi
}

# deadlock_cross: the report names both barriers, both warps and the PTX
# lines of the bar.sync each warp waits at
if echo "$NAMES" | grep -q deadlock_cross; then
	prepare deadlock_cross
	# shellcheck disable=SC2046
	report "deadlock_cross report" 5 "$D/deadlock_cross.sm90.ptx" $(cat "$T/deadlock_cross.args") -- \
		"deadlock" "barrier 1" "barrier 2" "count 32 of 64" "deadlock_cross.sm90.ptx:45)" \
		"deadlock_cross.sm90.ptx:36)" "warp 0: blocked on barrier 1" "warp 1: blocked on barrier 2"
fi

# bar_overfull: four warps at `bar.sync 1, 64` pass two by two (the run
# above); --check reports the two warps of each CTA's second phase as
# arrivals beyond the count, and with three warps the third one waits
# for ever (doc/spec-reading.md: decision 3, "arrivals beyond the count")
if echo "$NAMES" | grep -q bar_overfull; then
	prepare bar_overfull
	for sm in sm90 sm75; do
		for eng in scheduler warp-threads; do
			# shellcheck disable=SC2046
			"$W" run "$D/bar_overfull.$sm.ptx" $(cat "$T/bar_overfull.args") --check --engine "$eng" \
				--quiet > "$T/stdout" 2>&1
			if [ "$(grep -c 'check: arrivals-beyond-count: CTA (.,0,0) warp . PC 0x[0-9a-f]*: BAR.SYNC 0x1, 0x40' "$T/stdout")" = 4 ] &&
				[ "$(grep -c 'check: ' "$T/stdout")" = 5 ] && grep -q 'check: 4 hazards$' "$T/stdout"; then
				pass=$((pass + 1))
			else
				echo "FAIL: bar_overfull.$sm.ptx --check --engine $eng: not the 4 arrivals beyond the count"
				sed 's/^/    /' "$T/stdout" | head -10
				fail=$((fail + 1))
			fi
		done
		# shellcheck disable=SC2046
		report "bar_overfull.$sm.ptx --block 96" 5 "$D/bar_overfull.$sm.ptx" \
			$(sed 's/--block 128/--block 96/' "$T/bar_overfull.args") -- "deadlock in kernel bar_overfull" \
			"barrier 1: phase 1, sync/arv, count 32 of 64" "blocked on barrier 1 (count 32, expected 64) at PC" \
			"count 64 of 96 (all live warps)"
	done
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
