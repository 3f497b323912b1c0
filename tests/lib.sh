# lib.sh — shared by the shell tests (sourced; sets nothing else).
# shellcheck shell=sh
# expect STATUS PATTERN -- command...: the command's status is STATUS and
# its stdout+stderr match PATTERN (grep -E); counts in $pass / $fail.
# With EXPECT_LIMIT=N the command is killed after N seconds (a hang or a
# regression to quadratic time fails instead of blocking the suite).
expect() {
	want=$1 pat=$2
	shift 3
	if [ -n "${EXPECT_LIMIT:-}" ]; then
		out=$(timeout -s KILL "$EXPECT_LIMIT" "$@" 2>&1)
	else
		out=$("$@" 2>&1)
	fi
	st=$?
	if [ "$st" -eq "$want" ] && printf '%s\n' "$out" | grep -E -q -- "$pat"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $* -> status $st (want $want), output lacks /$pat/:"
		printf '%s\n' "$out" | sed 's/^/    /' | head -20
	fi
}

# jit_setup NAME: the start of a test of the compiled tier (NAME, its
# file): $we, the build's command; exit 77 (skipped) when it was built
# without LLVM; $tmp, a directory removed at exit; no disk cache of
# compiled kernels unless a test names one (WARPEMU_JIT_CACHE=off).
jit_setup() {
	# shellcheck disable=SC2154 # ($bld: the caller's build directory)
	we=$bld/src/warpemu
	"$we" info | grep -q '^Compiled tier: *LLVM' || { echo "$1: built without LLVM: skipped"; exit 77; }
	tmp=$(mktemp -d) || exit 99
	# shellcheck disable=SC2064 # ($tmp now)
	trap "rm -rf '$tmp'" EXIT
	WARPEMU_JIT_CACHE=off
	export WARPEMU_JIT_CACHE
}
