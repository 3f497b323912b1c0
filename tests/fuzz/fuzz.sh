#!/bin/sh
# fuzz.sh — build the libFuzzer harnesses of tests/fuzz with clang and run
# them (`make fuzz`, `make fuzz-ci`).
#
#   fuzz.sh [--seconds N | --ci] [--build-only] [--coverage | --tsan] [HARNESS...]
#
# HARNESS is asm, module, isagen, exec or ptx (default: all five).  Each harness
# is compiled with -fsanitize=fuzzer,address,undefined (UBSan fatal) against
# the library sources of Makefile.am's CORE_SRCS and the generated
# src/isa/isa_gen.c of the build directory, then run for N seconds (default
# $FUZZ_SECONDS, else 60) on the seed corpus (tests/fuzz/mkcorpus.sh) plus
# a working corpus kept in the build directory between runs.  A crash, a
# leak, a sanitizer report or a hang leaves the input in
# BUILDDIR/tests/fuzz/artifacts/ and makes the exit status 1.
#
# --ci (make fuzz-ci) runs each harness for a fixed number of inputs from a
# fixed seed (-seed=1 -runs=N, about a minute each on a 2-core machine,
# capped at 150 s) instead of for a time: a CI run explores the same inputs
# each time, so its verdict does not depend on the machine's speed or on
# luck, and a failure it reports is reproduced by running it again.
# (fuzz_exec launches run host threads, so its coverage feedback, and with
# it the later inputs, may still vary a little.)  Open-ended searching is
# what `make fuzz` with a long FUZZ_SECONDS is for.
#
# --coverage instead builds coverage-instrumented harnesses, replays every
# corpus and prints llvm-cov's line and region coverage per harness.
# --tsan builds the harnesses with ThreadSanitizer (and without libFuzzer's
# coverage counters, which threads update without synchronisation) and
# replays every corpus once: fuzz_exec's launches run both engines on
# several host threads, so this looks for data races on odd paths.
#
# Without clang or libFuzzer the script prints a notice and exits 0.
#
# Environment: top_srcdir, top_builddir (default: from the script's place
# and the current directory), FUZZ_CC (clang), HWLOC_CFLAGS, HWLOC_LIBS,
# FUZZ_FLAGS (extra libFuzzer options, e.g. -jobs=2), FUZZ_JOBS (parallel
# compiles, default 2).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=${top_srcdir:-$(cd "$here/../.." && pwd)}
bld=${top_builddir:-$(pwd)}
cc=${FUZZ_CC:-clang}
seconds=${FUZZ_SECONDS:-60}
build_only=0
coverage=0
ci=0
harnesses=
while [ $# -gt 0 ]; do
	case $1 in
	--seconds) seconds=$2; shift 2 ;;
	--seconds=*) seconds=${1#--seconds=}; shift ;;
	--build-only) build_only=1; shift ;;
	--ci) ci=1; shift ;;
	--coverage) coverage=1; shift ;;
	--tsan) coverage=2; shift ;;
	asm|module|isagen|exec|ptx) harnesses="$harnesses $1"; shift ;;
	*) echo "fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[ -n "$harnesses" ] || harnesses="asm module isagen exec ptx"
case $seconds in ''|*[!0-9]*) echo "fuzz.sh: FUZZ_SECONDS must be a number of seconds" >&2; exit 2 ;; esac

notice() { echo "fuzz: notice: $*; fuzzing skipped" >&2; exit 0; }

command -v "$cc" >/dev/null 2>&1 || notice "$cc not found (install the Debian package clang)"
"$cc" --version 2>/dev/null | grep -q clang || notice "$cc is not clang (libFuzzer needs clang; set FUZZ_CC)"
out=$bld/tests/fuzz-out
mkdir -p "$out" || exit 1
probe=$out/probe.c
echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n); int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { return d && n; }' > "$probe"
if ! "$cc" -fsanitize=fuzzer,address,undefined "$probe" -o "$out/probe" >/dev/null 2>&1; then
	rm -f "$probe"
	notice "$cc cannot build libFuzzer targets (install the Debian package libclang-rt-14-dev or the one matching $("$cc" -dumpversion 2>/dev/null))"
fi
rm -f "$probe" "$out/probe"
if [ ! -f "$bld/src/isa/isa_gen.c" ] || [ ! -f "$bld/src/isa/isa_gen.h" ]; then
	echo "fuzz.sh: $bld/src/isa/isa_gen.c is missing: run make first (make fuzz does)" >&2
	exit 1
fi

# The library sources: the .c files of CORE_SRCS in Makefile.am.
lib_srcs=$(sed -n '/^CORE_SRCS = /,/^[^	]/p' "$src/Makefile.am" | tr ' \\\t' '\n\n\n' | grep '\.c$')
[ -n "$lib_srcs" ] || { echo "fuzz.sh: cannot read CORE_SRCS from $src/Makefile.am" >&2; exit 1; }

if [ $coverage -eq 1 ]; then
	kind=cov
	san="-fsanitize=fuzzer-no-link -fprofile-instr-generate -fcoverage-mapping"
	link="-fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping"
elif [ $coverage -eq 2 ]; then
	kind=tsan
	san="-fsanitize=thread"
	link="-fsanitize=fuzzer,thread"
else
	kind=san
	san="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
	link="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
fi
obj=$out/obj-$kind
mkdir -p "$obj" || exit 1
# Not config.h: its WE_HAVE_TARGET_CLONES (GCC's multiversioning, probed
# with the configured compiler) does not link with clang; the dispatch
# choice is kept.
defs=
grep -q '^#define WE_COMPUTED_GOTO 1' "$bld/config.h" 2>/dev/null && defs=-DWE_COMPUTED_GOTO=1
# The compiled tier: when the build has LLVM and its module, the harnesses
# load that module from the build directory, and fuzz_exec compares the
# compiled code with the interpreter.
dl=
if grep -q '^#define WE_HAVE_LLVM 1' "$bld/config.h" 2>/dev/null && [ -f "$bld/src/.libs/warpemu-jit.so" ]; then
	defs="$defs -DWE_HAVE_LLVM=1 -DWE_JIT_BUILD_DIR=\"$bld/src/.libs\" -DWE_JIT_INSTALL_DIR=\"$bld/src/.libs\""
	dl=-ldl
	lib_srcs="$lib_srcs src/exec/jit_load.c" # (CORE_SRCS's $(JIT_SRCS))
	obj=$obj-jit # (objects of other defines)
	mkdir -p "$obj" || exit 1
fi
cflags="-std=c11 -g -O1 -fno-omit-frame-pointer -Wall -Wextra -Wno-unused-parameter -D_POSIX_C_SOURCE=200809L $defs -I$src/include -I$src/src -I$bld/src ${HWLOC_CFLAGS:-}"
libs="${HWLOC_LIBS:--lhwloc} -pthread -lm $dl"

# compile SRC OBJ [EXTRA CFLAGS...]: when OBJ is older than SRC or a header
compile() {
	s=$1 o=$2
	shift 2
	if [ -f "$o" ] && [ -z "$(find "$s" "$src/src" "$src/include" "$bld/src/isa/isa_gen.h" "$here" "$src/tests/engines.h" -newer "$o" -name '*.[ch]' 2>/dev/null | head -n 1)" ]; then
		return 0
	fi
	# shellcheck disable=SC2086
	"$cc" $cflags $san "$@" -c "$s" -o "$o"
}

echo "fuzz: building the harnesses ($kind) in $out"
fail=0
objs=
jobs=${FUZZ_JOBS:-2}
pids=
n=0
for f in $lib_srcs src/isa/isa_gen.c; do
	if [ "$f" = src/isa/isa_gen.c ]; then s=$bld/$f; else s=$src/$f; fi
	o=$obj/$(echo "$f" | tr '/' '_' | sed 's/\.c$/.o/')
	objs="$objs $o"
	compile "$s" "$o" &
	pids="$pids $!"
	n=$((n + 1))
	if [ $n -ge "$jobs" ]; then
		for p in $pids; do wait "$p" || fail=1; done
		pids= n=0
	fi
done
for p in $pids; do wait "$p" || fail=1; done
# isagen is a program: its main() becomes isagen_main(), and its heap is
# tracked by the harness (see fuzz_isagen.c)
isagen_objs=
for s in "$src"/src/isagen/*.c; do
	o=$obj/isagen_$(basename "$s" .c).o
	isagen_objs="$isagen_objs $o"
	compile "$s" "$o" -Dmain=isagen_main -Drealloc=isagen_fz_realloc -Dfree=isagen_fz_free || fail=1
done
[ $fail -eq 0 ] || { echo "fuzz.sh: compiling the library failed" >&2; exit 1; }
for h in $harnesses; do
	compile "$here/fuzz_$h.c" "$obj/fuzz_$h.o" || exit 1
	if [ "$h" = isagen ]; then deps=$isagen_objs; else deps=$objs; fi
	# shellcheck disable=SC2086
	"$cc" $link -o "$out/fuzz_$h-$kind" "$obj/fuzz_$h.o" $deps $libs || exit 1
done
[ $build_only -eq 1 ] && { echo "fuzz: built$(for h in $harnesses; do printf ' %s' "$out/fuzz_$h-$kind"; done)"; exit 0; }

# seed corpora, regenerated each time (cheap), and the persistent work corpora
WARPEMU=$bld/src/warpemu FUZZ_EXEC=$out/fuzz_exec-$kind ISA_GEN=$bld/src/isa/isa_gen.c sh "$here/mkcorpus.sh" "$out/seeds" || exit 1

if [ $coverage -eq 2 ]; then
	status=0
	for h in $harnesses; do
		mkdir -p "$out/work/$h"
		dirs="$out/work/$h $out/seeds/$h"
		[ -d "$src/tests/fuzz/corpus/$h" ] && dirs="$dirs $src/tests/fuzz/corpus/$h"
		log=$out/fuzz_$h-tsan.log
		echo "fuzz: replaying the corpora of fuzz_$h under ThreadSanitizer (log: $log)"
		close=
		[ "$h" = isagen ] && close=-close_fd_mask=2
		# shellcheck disable=SC2086
		TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
			"$out/fuzz_$h-tsan" -runs=0 -timeout=120 $close -artifact_prefix="$out/artifacts/$h-tsan-" \
			$dirs > "$log" 2>&1
		st=$?
		n=$(sed -n 's/^#\([0-9]*\).*DONE.*/\1/p' "$log" | tail -n 1)
		if [ $st -eq 0 ]; then
			echo "fuzz_$h (tsan): ok, ${n:-?} inputs"
		else
			status=1
			echo "fuzz_$h (tsan): FAILED (status $st); see $log"
			grep -E '^(WARNING: ThreadSanitizer|SUMMARY)' "$log" | head -n 4 | sed 's/^/    /'
		fi
	done
	exit $status
fi

if [ $coverage -eq 1 ]; then
	for h in $harnesses; do
		mkdir -p "$out/work/$h"
		rm -f "$out/cov-$h".profraw*
		dirs="$out/work/$h $out/seeds/$h"
		[ -d "$src/tests/fuzz/corpus/$h" ] && dirs="$dirs $src/tests/fuzz/corpus/$h"
		# shellcheck disable=SC2086
		LLVM_PROFILE_FILE="$out/cov-$h.profraw" "$out/fuzz_$h-cov" -runs=0 -close_fd_mask=3 $dirs >/dev/null 2>&1
		llvm-profdata merge -sparse "$out/cov-$h.profraw" -o "$out/cov-$h.profdata" || exit 1
		echo "== coverage of fuzz_$h (corpus: $(cat $dirs/* 2>/dev/null | wc -c) bytes in $(ls $dirs | wc -l) entries)"
		llvm-cov report "$out/fuzz_$h-cov" -instr-profile="$out/cov-$h.profdata" \
			-ignore-filename-regex='tests/fuzz/' | tail -n 1 |
			awk '{ printf "   total: regions %s covered (%s), lines %s covered\n", $2 - $3, $4, $(NF-3) }'
	done
	exit 0
fi

status=0
summary=
for h in $harnesses; do
	work=$out/work/$h
	art=$out/artifacts
	mkdir -p "$work" "$art"
	dirs="$work $out/seeds/$h"
	[ -d "$src/tests/fuzz/corpus/$h" ] && dirs="$dirs $src/tests/fuzz/corpus/$h"
	if [ $ci -eq 1 ]; then
		# inputs per harness: about a minute each on the CI machine
		case $h in asm) runs=80000 ;; module) runs=300000 ;; isagen) runs=40000 ;; exec) runs=15000 ;; ptx) runs=60000 ;; esac
		opts="-seed=1 -runs=$runs -max_total_time=150"
		what="$runs inputs from seed 1"
	else
		opts="-max_total_time=$seconds"
		what="${seconds}s"
	fi
	opts="$opts -timeout=30 -rss_limit_mb=2560 -print_final_stats=1"
	case $h in
	asm) opts="$opts -max_len=16384 -dict=$out/seeds/asm.dict" ;;
	module) opts="$opts -max_len=65536" ;;
	ptx) opts="$opts -max_len=16384" ;;
	# isagen prints every error of the description on stderr; the whole
	# ISA in one file is about 110 KiB
	isagen) opts="$opts -max_len=131072 -close_fd_mask=2" ;;
	# every launch starts host threads, whose allocations make libFuzzer
	# run LeakSanitizer after every input (3x slower); leaks are still
	# reported when the process exits (the log has the stack, no input)
	exec) opts="$opts -max_len=8192 -detect_leaks=0" ;;
	esac
	log=$out/fuzz_$h.log
	echo "fuzz: running fuzz_$h for $what (log: $log)"
	# shellcheck disable=SC2086
	"$out/fuzz_$h-san" $opts -artifact_prefix="$art/$h-" ${FUZZ_FLAGS:-} $dirs > "$log" 2>&1
	st=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*\(cov: [0-9]*\) \(ft: [0-9]*\) \(corp: [^ ]*\).*/\1 \2 \3/p')
	if [ $st -eq 0 ]; then
		line="fuzz_$h: ok, ${execs:-?} runs, $cov"
	else
		status=1
		line="fuzz_$h: FAILED (status $st), ${execs:-?} runs, $cov; see $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz property failed|.*runtime error)' "$log" | head -n 5 | sed 's/^/    /'
		grep -E "Test unit written to" "$log" | sed 's/^/    /'
	fi
	echo "$line"
	summary="$summary$line
"
done
echo "== fuzz summary"
printf '%s' "$summary"
exit $status
