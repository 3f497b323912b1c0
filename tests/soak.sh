#!/bin/sh
# soak.sh — `make soak`: run `warpemu stress` over every kernel of kernels/
# and every kernel of the deadlock corpus (tests/deadlock/*.we), on both
# engines, round after round with advancing seeds, for SOAK_SECONDS
# (default 600), and check each stress run's verdicts against the expected
# one: every run `ok` for kernels/ (stress also compares every run's
# buffers with the first one's: a schedule-dependent result is `differs`;
# the table below names the one kernel whose output order legitimately
# depends on the schedule),
# and for the deadlock corpus the verdict of its `// expect:` header
# (ok, deadlock, exception or timeout) for every run.
#
# Environment: SOAK_SECONDS, SOAK_RUNS (runs per stress command, default
# 8), SOAK_JOBS (stress --jobs, default 2), top_srcdir, top_builddir.
# Every other round adds --check (hazards never change a verdict).  Prints
# the counts of stress commands, runs, failures and verdicts at the end;
# exits 1 on any unexpected result.
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${top_builddir:-$src}
we=$bld/src/warpemu
secs=${SOAK_SECONDS:-600}
runs=${SOAK_RUNS:-8}
jobs=${SOAK_JOBS:-2}
[ -x "$we" ] || { echo "soak: $we not built" >&2; exit 2; }
for v in "$secs" "$runs" "$jobs"; do
	case $v in ''|*[!0-9]*) echo "soak: SOAK_SECONDS, SOAK_RUNS and SOAK_JOBS are numbers" >&2; exit 2 ;; esac
done
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# The kernels of kernels/ and the launch each needs: FILE|ARGS[|VERDICT].
# Every kernel of the directory must be here (checked below).  VERDICT is
# ok unless given: compact's output order follows the warps' arrival order
# at BAR.SCAN (see compact.we), so its runs are ok or differs.
cat > "$tmp/table" <<'EOF'
vecadd.we|--grid 4 --block 256 --arg n=1000 --arg a=iota:f32:1000 --arg b=fill:f32:1000:0.5 --arg c=zeros:4000 --expect c=iota:f32:1000:0.5
ifelse.we|--grid 3 --block 64 --arg n=150 --arg out=zeros:768 --arg mask=zeros:768
loopbreak.we|--grid 2 --block 64 --arg n=128 --arg in=iota:u32:128:1 --arg out=zeros:512
callret.we|--grid 2 --block 96 --arg n=180 --arg out=zeros:768
warpreduce.we|--grid 2 --block 128 --arg in=random:u32:256:3 --arg sum=zeros:32 --arg count=zeros:32
reduce.we|--grid 4 --block 256 --arg in=random:u32:1024:5 --arg out=zeros:16
scan.we|--grid 4 --block 256 --arg n=1000 --arg in=random:u32:1024:7 --arg out=zeros:4096
histogram.we|--grid 4 --block 128 --arg n=4000 --arg per_cta=1000 --arg in=random:u8:4000:9 --arg hist=zeros:1024
transpose.we|--grid 2,2 --block 32,8 --arg width=60 --arg height=50 --arg in=iota:u32:3000 --arg out=zeros:12000
compact.we|--grid 4 --block 128 --arg seg=300 --arg thresh=0x80000000 --arg in=random:u32:1200:11 --arg out=zeros:4800 --arg count=zeros:16|ok-or-differs
nbpipe.we|--grid 2 --block 160 --arg iters=6 --arg in=random:u32:384:13 --arg out=zeros:768
prodcons.we|--grid 3 --block 128 --arg iters=5 --arg in=random:u32:320:15 --arg out=zeros:768
traphandler.we|--grid 2 --block 128 --arg trap=1 --arg in=random:u32:256:17 --arg out=zeros:1024 --arg trapped=zeros:32
EOF
for f in "$src"/kernels/*.we; do
	b=$(basename "$f")
	grep -q "^$b|" "$tmp/table" || { echo "soak: kernels/$b has no entry in the table of tests/soak.sh" >&2; exit 2; }
done
: > "$tmp/entries"
while IFS='|' read -r f args verdict; do
	printf '%s|%s|%s\n' "$src/kernels/$f" "$args" "${verdict:-ok}" >> "$tmp/entries"
done < "$tmp/table"

# The deadlock corpus: the launch and the verdict from each header (see
# tests/deadlock/README.md).
for f in "$src"/tests/deadlock/*.we; do
	[ -f "$f" ] || continue
	launch=$(awk '!/^\/\// { exit } /^\/\/ launch:/ { sub(/^\/\/ launch:/, ""); printf "%s ", $0 }' "$f")
	verdict=$(awk '!/^\/\// { exit } /^\/\/ expect:/ { print $3; exit }' "$f")
	args= maxi=1000000 next_arg=0
	for it in $launch; do
		if [ $next_arg -eq 1 ]; then
			name=${it%%=*} val=${it#*=}
			case $val in
			u32:*) args="$args --arg $name=${val#u32:}" ;;
			buf:*) args="$args --arg $name=zeros:${val#buf:}" ;;
			*) echo "soak: $f: cannot read launch item 'arg $it'" >&2; exit 2 ;;
			esac
			next_arg=0
			continue
		fi
		case $it in
		grid=*) args="$args --grid ${it#grid=}" ;;
		block=*) args="$args --block ${it#block=}" ;;
		max_instructions=*) maxi=$((${it#max_instructions=})) ;;
		seeds=*) ;;
		arg) next_arg=1 ;;
		*) echo "soak: $f: cannot read launch item '$it'" >&2; exit 2 ;;
		esac
	done
	case $verdict in
	ok|deadlock|exception|timeout) ;;
	*) echo "soak: $f: cannot read the verdict of its '// expect:' line" >&2; exit 2 ;;
	esac
	printf '%s|%s --max-instructions %s|%s\n' "$f" "$args" "$maxi" "$verdict" >> "$tmp/entries"
done
nentries=$(wc -l < "$tmp/entries")

# status of stress for a verdict
status_of() {
	case $1 in ok) echo 0 ;; differs) echo 1 ;; exception) echo 4 ;; deadlock) echo 5 ;; timeout) echo 7 ;; esac
}
num() { sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p" "$tmp/out"; }

cmds=0 nruns=0 failures=0 round=0 seed=1
c_ok=0 c_differs=0 c_deadlock=0 c_exception=0 c_timeout=0
start=$(date +%s)
echo "soak: $nentries kernels x 2 engines, $runs runs per stress command, for ${secs}s"
while [ $(($(date +%s) - start)) -lt "$secs" ]; do
	round=$((round + 1))
	check=
	[ $((round % 2)) -eq 0 ] && check=--check
	while IFS='|' read -r f args verdict; do
		[ $(($(date +%s) - start)) -lt "$secs" ] || break
		for eng in scheduler warp-threads; do
			# shellcheck disable=SC2086
			timeout 300 "$we" stress "$f" $args --engine "$eng" --runs "$runs" --seed "$seed" \
				--jobs "$jobs" $check --quiet --stats=json > "$tmp/out" 2> "$tmp/err" < /dev/null
			st=$?
			cmds=$((cmds + 1))
			ok=$(num ok) di=$(num differs) dl=$(num deadlock) ex=$(num exception) to=$(num timeout)
			why=
			if [ -z "$ok$di$dl$ex$to" ] || [ -z "$ok" ] || [ -z "$to" ]; then
				why="no JSON summary (status $st)"
			else
				nruns=$((nruns + runs))
				c_ok=$((c_ok + ok)) c_differs=$((c_differs + di)) c_deadlock=$((c_deadlock + dl))
				c_exception=$((c_exception + ex)) c_timeout=$((c_timeout + to))
				case $verdict in
				ok) got=$ok ;; deadlock) got=$dl ;; exception) got=$ex ;; timeout) got=$to ;;
				ok-or-differs) got=$((ok + di)) ;;
				esac
				[ "$got" -eq "$runs" ] || why="expected $verdict in all $runs runs: ok $ok, differs $di, deadlock $dl, exception $ex, timeout $to"
				want=$(status_of "$verdict")
				[ "$verdict" = ok-or-differs ] && want=$( [ "$di" -gt 0 ] && echo 1 || echo 0 )
				[ -z "$why" ] && [ "$st" -ne "$want" ] && why="stress exited with $st, expected $want"
			fi
			if [ -n "$why" ]; then
				failures=$((failures + 1))
				echo "soak: FAIL: $(basename "$f") on $eng, seeds $seed..$((seed + runs - 1))${check:+ with --check}: $why"
				echo "    warpemu stress $f $args --engine $eng --runs $runs --seed $seed $check"
				sed -n 's/.*"failures":\[{"seed":\([0-9]*\),"class":"\([a-z]*\)","reason":"\([^"]*\)".*/    first failing run: seed \1: \2: \3/p' "$tmp/out"
				sed 's/^/    /' "$tmp/err" | head -n 5
			fi
		done
	done < "$tmp/entries"
	seed=$((seed + runs))
done
distinct=0
for c in $c_ok $c_differs $c_deadlock $c_exception $c_timeout; do [ "$c" -gt 0 ] && distinct=$((distinct + 1)); done
echo "soak: $(($(date +%s) - start))s, $round rounds, $cmds stress commands, $nruns runs, $failures failures"
echo "soak: verdicts: ok $c_ok, differs $c_differs, deadlock $c_deadlock, exception $c_exception, timeout $c_timeout ($distinct distinct)"
[ $failures -eq 0 ]
