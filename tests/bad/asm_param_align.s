// cmd: asm
// run: -o $OUT
// status: 3
// expect: asm_param_align.s:8:15: error: alignment 12 is not a power of two
// expect: asm_param_align.s:9:17: error: .align is for b8[N] parameters (a u32 aligns to its size)
// expect: asm_param_align.s:10:11: error: expected a size in bytes (1 to 4096)
// why: an aggregate parameter's alignment is a power of two; scalars align to their size
.param .align 12 b8[16] s
.param .align 8 u32 n
.param b8[0] z
        EXIT ;
