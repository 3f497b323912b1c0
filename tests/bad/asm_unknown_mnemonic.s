// run: --grid 1 --block 32
// status: 3
// expect: asm_unknown_mnemonic.s:6:9: error: unknown instruction 'FROB'
// why: an opcode no description defines
        MOV R1, R2 ;
        FROB R1, R2 ;
        EXIT ;
