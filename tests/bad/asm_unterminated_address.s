// run: --grid 1 --block 32
// status: 3
// expect: missing ']'
        LDG R1, [R2.64+0x10 ;
        EXIT ;
