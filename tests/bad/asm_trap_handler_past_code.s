// cmd: asm
// run: -o $OUT
// status: 3
// expect: asm_trap_handler_past_code.s:9:23: error: the trap handler 0x20 is outside the code (0x20 bytes)
// why: a trap handler label at the end of the code, past its last instruction: the module's loader refuses such an image (found by fuzz_asm)
.kernel k
        NOP ;
        EXIT ;
        .trap_handler .h ;
.h:
.end
