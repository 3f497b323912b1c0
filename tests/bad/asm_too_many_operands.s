// run: --grid 1 --block 32
// status: 3
// expect: too many operands
        MOV R1, R2, R3 ;
        EXIT ;
