#!/bin/sh
# shellcheck disable=SC2015,SC2086 # (ok never fails; the launch's arguments are words)
# The disk cache of compiled kernels (--jit-cache, WARPEMU_JIT_CACHE;
# src/exec/jit_disk.h), end to end, in directories of its own: a run
# writes an entry, another process loads it and gives the interpreter's
# bytes; truncated, corrupt, foreign and group-writable entries are
# ignored and written again; a directory that cannot be made only leaves
# a note; off writes nothing; the default's place; concurrent writers.
# Nothing here depends on timing: the loads are asked for with --jit on,
# and auto only where its outcome does not depend on the host's speed.
set -u
src=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
bld=${top_builddir:-$src}
. "$src/tests/lib.sh"
jit_setup jit_cache.sh
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# (no entry anywhere but where a test puts it)
unset XDG_CACHE_HOME

n=65536
kargs="$src/bench/kernels/triad.we --block 256 --arg n=$n --arg s=1.5 --arg a=zeros:$((4 * n))
 --arg b=iota:f32:$n --arg c=fill:f32:$n:2"
triad="$kargs --grid 256"
# run NAME ARGS...: warpemu run triad ARGS --stats=json, its buffer a in
# $tmp/NAME.bin, the JSON in $tmp/NAME.json, stderr in $tmp/NAME.err
run() {
	name=$1
	shift
	"$we" run $triad --out "a=$tmp/$name.bin" --stats=json "$@" > "$tmp/$name.json" 2> "$tmp/$name.err" ||
		bad "$name: exit status $? ($(head -3 "$tmp/$name.err"))"
}
# field NAME KEY: a member of the JSON's jit.cache (or jit, for KEY
# state0 and compile_seconds)
field() {
	case $2 in
	state0) sed -n 's/.*"jit":{"state":"\([^"]*\)".*/\1/p' "$tmp/$1.json" ;;
	compile_seconds) sed -n 's/.*"compile_seconds":\([^,]*\),.*/\1/p' "$tmp/$1.json" ;;
	entry | note) sed -n "s/.*\"cache\":{.*\"$2\":\"\\([^\"]*\\)\".*/\\1/p" "$tmp/$1.json" ;;
	*) sed -n "s/.*\"cache\":{.*\"$2\":\"\\{0,1\\}\\([^\",}]*\\).*/\\1/p" "$tmp/$1.json" ;;
	esac
}
# is NAME KEY VALUE
is() {
	got=$(field "$1" "$2")
	if [ "$got" = "$3" ]; then ok; else bad "$1: jit.cache $2 is '$got', want '$3' ($(cat "$tmp/$1.json"))"; fi
}
same() {
	if cmp -s "$tmp/off.bin" "$tmp/$1.bin"; then ok; else bad "$1: the buffer differs from --jit off's"; fi
}
has_note() {
	if field "$1" note | grep -q -- "$2"; then ok; else bad "$1: the note lacks '$2': $(field "$1" note)"; fi
}
entries() { find "$1" -name '*.wjit' 2>/dev/null | wc -l; }
temps() { find "$1" -name '.*' -type f 2>/dev/null | wc -l; }

run off --jit off
is off state unused
c=$tmp/cache
# (--stream-min, which compiled code reads: storing every whole line it
# can past the host's caches, or none, it stores the interpreter's bytes)
run stream1 --jit on --stream-min 1
same stream1
run streamoff --jit on --stream-min off
same streamoff

# a compile writes the entry (the directory made, private), with no
# temporary file left; the summary says where
run store --jit on --jit-cache "$c"
is store state stored
same store
[ "$(entries "$c")" -eq 1 ] && [ "$(temps "$c")" -eq 0 ] && ok || bad "store: $(ls -la "$c")"
[ "$(stat -c %a "$c")" = 700 ] && ok || bad "store: the directory's mode is $(stat -c %a "$c")"
entry=$(field store entry)
[ -f "$entry" ] && [ "$(dirname "$entry")" = "$c" ] && ok || bad "store: entry '$entry'"
"$we" run $triad --jit on --jit-cache "$c" 2>&1 >/dev/null | grep -q "jit: [0-9]* blocks of [0-9]* instructions\( and a warp function of [0-9]* entries\)\? loaded in .* s from $entry\$" &&
	ok || bad "the summary does not name the entry loaded"

# another process loads it: nothing compiled, the same bytes
run load --jit on --jit-cache "$c"
is load state loaded
same load
[ "$(field load state0)" = compiled ] && [ "$(field load compile_seconds)" = 0 ] && ok ||
	bad "load: $(cat "$tmp/load.json")"
# auto on a launch of one batch (no time left to predict): the entry is
# found, not loaded
"$we" run $kargs --grid 1 --jit auto --jit-cache "$c" --stats=json > "$tmp/auto1.json" 2>/dev/null
is auto1 state found
# auto on the whole grid: loaded or not as the host's speed decides, the
# interpreter's bytes either way
run auto --jit auto --jit-cache "$c"
case $(field auto state) in loaded | found) ok ;; *) bad "auto: $(cat "$tmp/auto.json")" ;; esac
same auto

# a truncated entry is ignored, compiled again and rewritten
head -c 1000 "$entry" > "$tmp/t" && cat "$tmp/t" > "$entry"
run trunc --jit on --jit-cache "$c"
is trunc state stored
has_note trunc "truncated"
same trunc
run again --jit on --jit-cache "$c"
is again state loaded
# a byte flipped in the object: the checksum
at=$(($(stat -c %s "$entry") - 100))
byte=$(od -An -tu1 -j $at -N1 "$entry" | tr -d ' ')
# shellcheck disable=SC2059
printf "\\$(printf %o $((255 - byte)))" | dd of="$entry" bs=1 seek=$at conv=notrunc 2>/dev/null
run flip --jit on --jit-cache "$c"
is flip state stored
has_note flip "checksum"
same flip
# an entry of another kernel under this kernel's name (a whole, valid
# file): its key's material differs
printf '.kernel two\n.param ptr out\n        S2R R0, SR_TID.X ;\n        MOV R4, c[0x0][0x0] ;\n        MOV R5, c[0x0][0x4] ;\n        IMAD.WIDE.U32 R[4:5], R0, 0x4, R[4:5] ;\n        IADD3 R6, R0, 0x7, RZ ;\n        STG [R4.64], R6 ;\n        EXIT ;\n.end\n' > "$tmp/two.we"
"$we" run "$tmp/two.we" --grid 1 --block 32 --arg out=zeros:128 --jit on --jit-cache "$tmp/other" --quiet ||
	bad "two: exit status $?"
cp "$(find "$tmp/other" -name '*.wjit')" "$entry"
run foreign --jit on --jit-cache "$c"
is foreign state stored
has_note foreign "another kernel"
same foreign
# an entry others may write is not run
chmod 666 "$entry"
run mode --jit on --jit-cache "$c"
has_note mode "only this user may write"
is mode state stored
same mode
[ "$(stat -c %a "$entry")" = 600 ] && ok || bad "mode: the entry written again is $(stat -c %a "$entry")"

# a directory that cannot be made (under a file: also as root): a note,
# the run goes on
: > "$tmp/file"
run nodir --jit on --jit-cache "$tmp/file/sub"
is nodir state "not stored"
has_note nodir "cannot create the directory"
same nodir
"$we" run $triad --jit on --jit-cache "$tmp/file/sub" 2>&1 >/dev/null | grep -q '^warpemu: jit cache: cannot create' &&
	ok || bad "nodir: no note in the summary"

# off writes nothing: --jit-cache off over the environment, and the
# environment's off
# erun NAME ENV-ARGS...: as run with --jit on and $more, under env
# ENV-ARGS
more=
erun() {
	name=$1
	shift
	env "$@" "$we" run $triad --jit on $more --out "a=$tmp/$name.bin" --stats=json > "$tmp/$name.json" \
		2> "$tmp/$name.err" || bad "$name: exit status $?"
}
more="--jit-cache off"
erun off1 WARPEMU_JIT_CACHE="$tmp/envdir"
more=
is off1 state off
same off1
[ ! -e "$tmp/envdir" ] && ok || bad "--jit-cache off wrote $tmp/envdir"
run off2 --jit on
is off2 state off

# the default: WARPEMU_JIT_CACHE, else $XDG_CACHE_HOME/warpemu, else
# $HOME/.cache/warpemu
erun env WARPEMU_JIT_CACHE="$tmp/env"
[ "$(entries "$tmp/env")" -eq 1 ] && ok || bad "WARPEMU_JIT_CACHE: nothing in $tmp/env"
erun xdg -u WARPEMU_JIT_CACHE XDG_CACHE_HOME="$tmp/xdg" HOME="$tmp/home"
[ "$(entries "$tmp/xdg/warpemu")" -eq 1 ] && [ ! -e "$tmp/home/.cache" ] && ok || bad "XDG_CACHE_HOME: $(ls -R "$tmp/xdg")"
erun home -u WARPEMU_JIT_CACHE -u XDG_CACHE_HOME HOME="$tmp/home"
[ "$(entries "$tmp/home/.cache/warpemu")" -eq 1 ] && ok || bad "HOME: $(ls -R "$tmp/home")"
env -u WARPEMU_JIT_CACHE -u XDG_CACHE_HOME HOME="$tmp/home" "$we" info |
	grep -q "^Compiled kernels: *$tmp/home/.cache/warpemu " && ok || bad "info does not show the cache's directory"

# four processes compiling one kernel into one new directory at once: each
# renames a whole file over the others', none reads half of one (a
# truncated or corrupt read would leave a note)
d=$tmp/race
for i in 1 2 3 4; do run "race$i" --jit on --jit-cache "$d" & done
wait
# (one that starts after another's rename loads that one's entry)
for i in 1 2 3 4; do
	case $(field "race$i" state)/$(field "race$i" note) in stored/ | loaded/) ok ;; *) bad "race$i: $(cat "$tmp/race$i.json")" ;; esac
	same "race$i"
done
[ "$(entries "$d")" -eq 1 ] && [ "$(temps "$d")" -eq 0 ] && ok || bad "race: $(ls -la "$d")"
run race5 --jit on --jit-cache "$d"
is race5 state loaded

# a kernel with nothing to compile: an entry of no block, loaded without
# LLVM
printf '.kernel none\n.param ptr out\n        S2R R4, SR_CLOCKLO ;\n        BAR.SYNC 0 ;\n        EXIT ;\n.end\n' > "$tmp/none.we"
for i in 1 2; do
	"$we" run "$tmp/none.we" --grid 1 --block 64 --arg out=zeros:4 --jit on --jit-cache "$tmp/none" --stats=json \
		> "$tmp/none$i.json" 2>/dev/null || bad "none: exit status $?"
done
is none1 state stored
is none2 state loaded
[ "$(field none2 state0)" = "no block" ] && ok || bad "none2: $(cat "$tmp/none2.json")"

# the size bound (WARPEMU_JIT_CACHE_MAX): writing an entry removes the
# least recently used ones (a load counts as a use) until the rest fit,
# and writers' temporary files an hour old; never the entry written
d=$tmp/prune
run pa --jit on --jit-cache "$d"
ea=$(field pa entry)
"$we" run "$tmp/two.we" --grid 1 --block 32 --arg out=zeros:128 --jit on --jit-cache "$d" --quiet ||
	bad "prune two: exit status $?"
eb=$(find "$d" -name '*.wjit' ! -path "$ea")
touch -d '3 hours ago' "$ea"
touch -d '2 hours ago' "$eb"
run pload --jit on --jit-cache "$d"
is pload state loaded
hex=0123456789abcdef0123456789abcdef
: > "$d/.$hex.stale0" && touch -d '2 hours ago' "$d/.$hex.stale0"
: > "$d/.$hex.fresh0"
limit=$(($(stat -c %s "$ea") + $(stat -c %s "$(find "$tmp/none" -name '*.wjit')") + 1))
WARPEMU_JIT_CACHE_MAX=$limit "$we" run "$tmp/none.we" --grid 1 --block 64 --arg out=zeros:4 --jit on \
	--jit-cache "$d" --quiet || bad "prune none: exit status $?"
[ -f "$ea" ] && [ ! -e "$eb" ] && [ "$(entries "$d")" -eq 2 ] && ok ||
	bad "prune: the entry loaded last or the new one removed, or the oldest kept: $(ls -la "$d")"
[ ! -e "$d/.$hex.stale0" ] && [ -e "$d/.$hex.fresh0" ] && ok || bad "prune: temporary files: $(ls -la "$d")"
# a bound below the new entry alone: it stays, every other goes
WARPEMU_JIT_CACHE_MAX=1 "$we" run $triad --jit on --jit-cache "$tmp/prune2" --quiet || bad "prune2: exit status $?"
"$we" run "$tmp/two.we" --grid 1 --block 32 --arg out=zeros:128 --jit on --jit-cache "$tmp/prune2" --quiet ||
	bad "prune2 two: exit status $?"
WARPEMU_JIT_CACHE_MAX=1 "$we" run "$tmp/none.we" --grid 1 --block 64 --arg out=zeros:4 --jit on \
	--jit-cache "$tmp/prune2" --quiet || bad "prune2 none: exit status $?"
[ "$(entries "$tmp/prune2")" -eq 1 ] && ok || bad "prune2: $(ls -la "$tmp/prune2")"

echo "jit_cache.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
