// run: --grid 1 --block 32
// status: 3
// expect: asm_atomic_inc_float.s:9:9: error: invalid ATOMG: IllegalBitFieldValue: .INC and .DEC take .U32
// expect: asm_atomic_inc_float.s:10:9: error: invalid ATOMS: IllegalBitFieldValue: .INC and .DEC take .U32
// why: num.isa's atomics: .INC/.DEC are unsigned 32-bit operations only
.kernel k
        MOV R2, RZ ;
        MOV R3, RZ ;
        ATOMG.E.INC.F32 R0, [R2.64], R1 ;
        ATOMS.DEC.F64 R4, [R2], R6 ;
        EXIT ;
.end
