#!/bin/sh
# mpi.sh — warpemu under mpirun (issue 18, doc/distributed.md), on this
# machine with 2 and 3 ranks (oversubscribed), both engines:
#   - every kernel of kernels/ and the atomics of tests/mpi/atomics.we
#     leave buffers byte-identical to the single-process run's, and the
#     PTX examples of tests/ptx/ their reference outputs;
#   - kernels whose CTAs communicate through global memory are refused
#     with the documented error (exit status 7), naming buffer and offset;
#   - a deadlock in a CTA of rank 1 gives the single-process report and
#     exit status, and CTAs that never end on a higher rank are stopped;
#   - --stats=json has one entry per rank;
#   - stress over the ranks finds the failing seeds it finds alone.
# Skipped (exit 77) with a notice when MPI is not built in.  Every mpirun
# is bounded by `timeout`.
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${top_builddir:-$src}
we=$bld/src/warpemu
if [ "${WE_MPI:-no}" != yes ]; then
	echo "mpi.sh: notice: MPI is not built in (configure --without-mpi, or no MPI found): the MPI tests are skipped"
	exit 77
fi
mpx=${WE_MPIEXEC:-mpiexec}
# Open MPI refuses root and more ranks than cores without these; MPICH
# (Hydra) needs nothing (doc/distributed.md)
extra=
case $("$mpx" --version 2>&1) in *"Open MPI"*|*OpenRTE*) extra="--oversubscribe --allow-run-as-root" ;; esac
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0 checks=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { checks=$((checks + 1)); }
# mpi NP ARGS...: warpemu under mpirun with NP ranks, at most 120 s
mpi() { np=$1; shift; timeout 120 "$mpx" $extra -n "$np" "$we" "$@" < /dev/null; }

# The kernels of kernels/ (every one, checked below) and the launch each
# needs, with grids of at least 3 CTAs where the kernel allows.
cat > "$tmp/table" <<'EOF'
vecadd.we|--grid 40 --block 256 --arg n=10000 --arg a=iota:f32:10000 --arg b=fill:f32:10000:0.5 --arg c=zeros:40000
ifelse.we|--grid 3 --block 64 --arg n=150 --arg out=zeros:768 --arg mask=zeros:768
loopbreak.we|--grid 4 --block 64 --arg n=256 --arg in=iota:u32:256:1 --arg out=zeros:1024
callret.we|--grid 3 --block 96 --arg n=270 --arg out=zeros:1152
warpreduce.we|--grid 4 --block 128 --arg in=random:u32:512:3 --arg sum=zeros:64 --arg count=zeros:64
reduce.we|--grid 64 --block 256 --arg in=random:u32:16384:5 --arg out=zeros:256
scan.we|--grid 4 --block 256 --arg n=1000 --arg in=random:u32:1024:7 --arg out=zeros:4096
histogram.we|--grid 16 --block 128 --arg n=64000 --arg per_cta=4000 --arg in=random:u8:64000:9 --arg hist=zeros:1024
transpose.we|--grid 2,2 --block 32,8 --arg width=60 --arg height=50 --arg in=iota:u32:3000 --arg out=zeros:12000
compact.we|--grid 4 --block 128 --arg seg=300 --arg thresh=0x80000000 --arg in=random:u32:1200:11 --arg out=zeros:4800 --arg count=zeros:16
nbpipe.we|--grid 3 --block 160 --arg iters=6 --arg in=random:u32:576:13 --arg out=zeros:1152
prodcons.we|--grid 3 --block 128 --arg iters=5 --arg in=random:u32:320:15 --arg out=zeros:768
traphandler.we|--grid 3 --block 128 --arg trap=1 --arg in=random:u32:384:17 --arg out=zeros:1536 --arg trapped=zeros:48
EOF
for f in "$src"/kernels/*.we; do
	b=$(basename "$f")
	grep -q "^$b|" "$tmp/table" || { echo "mpi.sh: kernels/$b has no entry in the table of tests/mpi.sh"; exit 99; }
done
printf '%s\n' "tests/mpi/atomics.we|--grid 200 --block 64 --arg p=fill:u32:8:0xffffffff" >> "$tmp/table"

# --out NAME=DIR/NAME for every buffer argument (a value with a ':')
outs() {
	dir=$1; shift
	o=
	while [ $# -gt 0 ]; do
		if [ "$1" = --arg ]; then
			case $2 in *=*:*) o="$o --out ${2%%=*}=$dir/${2%%=*}" ;; esac
			shift
		fi
		shift
	done
	echo "$o"
}

# ---- every kernel: byte-identical buffers, 2 and 3 ranks, both engines
# and, where the build has LLVM, the scheduler with the compiled tier on:
# a rank sends its buffers against their copies from before the launch
# (src/dist/merge.c), so its compiled stores count as interpreted ones
engines="scheduler warp-threads"
"$we" info 2> /dev/null | grep -q '^Compiled tier: *LLVM' && engines="$engines scheduler+jit"
while IFS='|' read -r f args; do
	case $f in tests/*) path=$src/$f ;; *) path=$src/kernels/$f ;; esac
	for eng in $engines; do
		opts="--engine ${eng%+jit}"
		[ "$eng" = scheduler+jit ] && opts="$opts --jit on"
		# compact's output order within a chunk follows the warps'
		# arrival at BAR.SCAN: with warp threads, a seeded schedule (per
		# CTA, so the same under any division of the grid) fixes it
		sched=
		[ "$f" = compact.we ] && [ "$eng" = warp-threads ] && sched="--schedule seed:7"
		for np in 1 2 3; do
			d=$tmp/$np
			rm -rf "$d" && mkdir -p "$d"
			# shellcheck disable=SC2086
			if [ "$np" = 1 ]; then
				"$we" run "$path" $args $opts $sched --quiet $(outs "$d" $args) 2> "$d/err"
			else
				mpi "$np" run "$path" $args $opts $sched --quiet $(outs "$d" $args) 2> "$d/err"
			fi
			echo $? > "$d/rc"
		done
		for np in 2 3; do
			what="$f --engine $eng, $np ranks"
			if ! cmp -s "$tmp/1/rc" "$tmp/$np/rc"; then
				fail "$what: exit status $(cat "$tmp/$np/rc"), alone $(cat "$tmp/1/rc"): $(head -3 "$tmp/$np/err")"
				continue
			fi
			[ "$(cat "$tmp/1/rc")" = 0 ] || { fail "$what: exit status $(cat "$tmp/1/rc") alone"; continue; }
			for b in "$tmp/1"/*; do
				case $(basename "$b") in err|rc) continue ;; esac
				if cmp -s "$b" "$tmp/$np/$(basename "$b")"; then ok
				else fail "$what: buffer $(basename "$b") differs from the single-process run's"; fi
			done
		done
	done
done < "$tmp/table"

# ---- the PTX examples (tests/ptx.sh, nvcc's PTX with the outputs of
# their C references): the same buffers under 2 and 3 ranks, both engines;
# but num_atomic, whose CTAs add floats into one word (atom.add.f32), which
# does not merge, and globals, whose threads use the values atomicAdd
# returned, are refused; so are cas_loops (CAS loops on global words)
# and fence_last (the last-block reduction: atomicInc tickets); and
# flag_release is left out: its blocks wait for each other's flags, which
# another rank's grid part never sets
ptx_names=$(PTX_NAMES= sh "$src/tests/ptx.sh" --names | sed 's/ num_atomic//; s/ globals//; s/ cas_loops//; s/ fence_last//; s/ flag_release//')
[ -n "$ptx_names" ] || fail "mpi.sh: no NAMES in tests/ptx.sh"
for np in 2 3; do
	PTX_NAMES=$ptx_names PTX_LAUNCHER="timeout 120 $mpx $extra -n $np" PTX_SMS=sm90 PTX_ENGINES_ONLY=1 \
		sh "$src/tests/ptx.sh" > "$tmp/ptx" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q '^[1-9][0-9]* passed, 0 failed$' "$tmp/ptx"; then ok
	else fail "tests/ptx.sh under $np ranks: $(grep -A3 FAIL "$tmp/ptx" | head -12)"; fi
done
PTX_NAMES=num_atomic PTX_LAUNCHER="timeout 120 $mpx $extra -n 2" PTX_SMS=sm90 PTX_ENGINES_ONLY=1 \
	sh "$src/tests/ptx.sh" > "$tmp/ptx" 2>&1
if grep -q '^0 passed, 2 failed$' "$tmp/ptx" && [ "$(grep -c 'exit 7, expected 0' "$tmp/ptx")" = 2 ] &&
	grep -q "updated it with ADD.F32 atomics, which do not merge" "$tmp/ptx"; then ok
else fail "num_atomic under 2 ranks is not refused: $(head -6 "$tmp/ptx")"; fi
# globals: every thread takes a ticket with atomicAdd on a __device__
# counter and stores the largest it got (+1): a fetched atomic on a word
# of the module's .global variables that both ranks update
PTX_NAMES=globals PTX_LAUNCHER="timeout 120 $mpx $extra -n 2" PTX_SMS=sm90 PTX_ENGINES_ONLY=1 \
	sh "$src/tests/ptx.sh" > "$tmp/ptx" 2>&1
if grep -q '^0 passed, 2 failed$' "$tmp/ptx" && [ "$(grep -c 'exit 7, expected 0' "$tmp/ptx")" = 2 ] &&
	grep -q "parameter '.global variables', offset 0 (0x0): rank 1 and a lower rank updated it with ADD atomics, and one of them used the old value" "$tmp/ptx"; then ok
else fail "globals under 2 ranks is not refused: $(head -6 "$tmp/ptx")"; fi

for k in cas_loops:CAS fence_last:INC; do
	kn=${k%:*} kop=${k#*:}
	PTX_NAMES=$kn PTX_LAUNCHER="timeout 120 $mpx $extra -n 2" PTX_SMS=sm90 PTX_ENGINES_ONLY=1 \
		sh "$src/tests/ptx.sh" > "$tmp/ptx" 2>&1
	if grep -q '^0 passed, 2 failed$' "$tmp/ptx" && [ "$(grep -c 'exit 7, expected 0' "$tmp/ptx")" = 2 ] &&
		grep -q "parameter '${kn}_param_3', offset 0 (0x0): rank 1 and a lower rank updated it with $kop atomics" "$tmp/ptx"; then ok
	else fail "$kn under 2 ranks is not refused: $(head -6 "$tmp/ptx")"; fi
done

# ---- kernels that communicate through global memory: refused
# expect_refused NP FILE ARGS -- TEXT...: exit status 7 and every TEXT on
# stderr, in one message
expect_refused() {
	np=$1 f=$2; shift 2
	args=
	while [ "$1" != -- ]; do args="$args $1"; shift; done
	shift
	# shellcheck disable=SC2086
	mpi "$np" run "$src/tests/mpi/$f" $args --quiet > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ $rc -ne 7 ]; then fail "$f, $np ranks: exit status $rc, want 7 (refused): $(head -3 "$tmp/err")"; return; fi
	if [ "$(grep -c 'cannot distribute' "$tmp/err")" != 1 ]; then fail "$f, $np ranks: not said once: $(cat "$tmp/err")"; return; fi
	for t in "$@"; do
		grep -qF "$t" "$tmp/err" || { fail "$f, $np ranks: no '$t' in: $(cat "$tmp/err")"; return; }
	done
	ok
}
# (which rank meets the other's store first depends on which of a rank's
# CTAs stored last: a store of the value already there changes nothing)
for np in 2 3; do
	expect_refused $np plain_race.we --grid 6 --block 32 --arg out=zeros:4 -- \
		"warpemu: cannot distribute this launch faithfully: parameter 'out', offset 0 (0x0): rank " \
		"and a lower rank stored different values there: the grid's CTAs communicate through global memory"
	expect_refused $np cas_claim.we --grid 6 --block 32 --arg p=zeros:8 -- \
		"parameter 'p', offset 0 (0x0): rank 1 and a lower rank updated it with CAS atomics, which do not merge"
done
# alone, the same kernels run
"$we" run "$src/tests/mpi/plain_race.we" --grid 6 --block 32 --arg out=zeros:4 --quiet && ok ||
	fail "plain_race.we alone: exit status $?"

# ---- a deadlock in CTA 5: rank 1 of 2 (CTAs 4..8) and of 3 (3..5); with
# 3 ranks the CTAs of rank 2 loop forever and must be stopped
for eng in scheduler warp-threads; do
	dl="$src/tests/mpi/deadlock_high.we --grid 9 --block 32 --arg bad=5 --arg out=zeros:36 --engine $eng --report=json"
	# shellcheck disable=SC2086
	"$we" run $dl --arg spin=0 > "$tmp/dl1.json" 2> "$tmp/dl1.err"
	rc1=$?
	[ $rc1 -eq 5 ] || fail "deadlock_high.we alone ($eng): exit status $rc1, want 5"
	for np in 2 3; do
		spin=0
		[ $np = 3 ] && spin=1
		# shellcheck disable=SC2086
		mpi $np run $dl --arg spin=$spin > "$tmp/dl.json" 2> "$tmp/dl.err"
		rc=$?
		what="deadlock in rank 1 of $np ($eng)"
		if [ $rc -ne $rc1 ]; then fail "$what: exit status $rc, alone $rc1: $(head -3 "$tmp/dl.err")"
		elif ! cmp -s "$tmp/dl1.json" "$tmp/dl.json"; then fail "$what: the JSON report differs from the single-process one"
		elif ! cmp -s "$tmp/dl1.err" "$tmp/dl.err"; then fail "$what: stderr differs: $(diff "$tmp/dl1.err" "$tmp/dl.err" | head -5)"
		elif ! grep -q '"cta":\[5,0,0\]' "$tmp/dl.json"; then fail "$what: not CTA 5's report"
		else ok; fi
	done
done

# ---- --stats=json: the whole launch and one entry per rank
mpi 3 run "$src/kernels/vecadd.we" --grid 40 --block 256 --arg n=10000 --arg a=iota:f32:10000 \
	--arg b=fill:f32:10000:0.5 --arg c=zeros:40000 --expect c=iota:f32:10000:0.5 --stats=json > "$tmp/st.json" 2> "$tmp/st.err"
rc=$?
if [ $rc -ne 0 ]; then fail "--stats=json over 3 ranks: exit status $rc: $(head -3 "$tmp/st.err")"
elif [ "$(grep -o '"rank":[0-9]*' "$tmp/st.json" | tr '\n' ' ')" != '"rank":0 "rank":1 "rank":2 ' ]; then
	fail "--stats=json over 3 ranks: not one entry per rank: $(cat "$tmp/st.json")"
elif ! grep -q '"ctas":40,' "$tmp/st.json" || ! grep -q '"first_cta":26,"ctas":14,' "$tmp/st.json" ||
	! grep -q '"bytes_merged":' "$tmp/st.json" || ! grep -q '"ok":true' "$tmp/st.json"; then
	fail "--stats=json over 3 ranks: missing figures: $(cat "$tmp/st.json")"
elif [ "$(wc -l < "$tmp/st.json")" != 1 ]; then fail "--stats=json over 3 ranks: stdout is not one document"
else ok; fi

# ---- --check: each rank lists its CTAs' hazards; the count is the grid's
ck="$src/tests/deadlock/four_warps_count_two.we --grid 4 --block 128 --arg out=zeros:2048 --check --stats=json"
# shellcheck disable=SC2086
w1=$("$we" run $ck 2> /dev/null | grep -o '"warnings":[0-9]*')
# shellcheck disable=SC2086
w3=$(mpi 3 run $ck 2> "$tmp/ck.err" | grep -o '"warnings":[0-9]*')
if [ -n "$w1" ] && [ "$w1" = "$w3" ] && [ "$w1" != '"warnings":0' ] &&
	[ "$(grep -c 'check: arrivals-beyond-count: CTA' "$tmp/ck.err")" -gt 0 ]; then ok
else fail "--check over 3 ranks: $w3, alone $w1: $(head -3 "$tmp/ck.err")"; fi

# ---- stress over the ranks: the verdict of every seed (ok, differs from
# the reference run, exception), the failing seeds listed, the replay
# commands and the exit status are those of stress alone.  Seed 5 is an
# exception, so the reference (the first ok run) is found after it, and
# ranks 1 and 2 compare with rank 0's.
st="$src/tests/mpi/race_classes.we --grid 3 --block 128 --arg out=zeros:12 --runs 120 --seed 5"
# shellcheck disable=SC2086
"$we" stress $st > "$tmp/st1" 2>&1
rc1=$?
# shellcheck disable=SC2086
"$we" stress $st --stats=json 2> /dev/null | sed 's/"seconds":[0-9.e+-]*,//' > "$tmp/sj1"
grep -q '^  differs  *[1-9]' "$tmp/st1" && grep -q '^  exception  *[1-9]' "$tmp/st1" ||
	fail "race_classes.we: stress alone does not mix verdicts: $(head -8 "$tmp/st1")"
for np in 2 3; do
	# shellcheck disable=SC2086
	mpi $np stress $st > "$tmp/stn" 2>&1
	rc=$?
	# shellcheck disable=SC2086
	mpi $np stress $st --stats=json 2> /dev/null | sed 's/"seconds":[0-9.e+-]*,//' > "$tmp/sjn"
	if [ $rc -ne $rc1 ]; then fail "stress over $np ranks: exit status $rc, alone $rc1"
	# (the first line has the time)
	elif ! diff "$tmp/st1" "$tmp/stn" | grep -v '^[<>] stress: kernel' | grep -q '^[<>]' &&
	     cmp -s "$tmp/sj1" "$tmp/sjn"; then ok
	else fail "stress over $np ranks differs from stress alone: $(diff "$tmp/st1" "$tmp/stn" | head -6)"; fi
done

echo "mpi.sh: $checks passed, $fails failed"
[ $fails -eq 0 ]
