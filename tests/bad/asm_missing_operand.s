// run: --grid 1 --block 32
// status: 3
// expect: missing operand 3
        IADD3 R1, R2 ;
        EXIT ;
