// run: --grid 1 --block 32
// status: 3
// expect: shift count 64 out of range
        MOV R1, (1 << 64) ;
        EXIT ;
