// run: --grid 1 --block 32
// status: 3
// expect: register R300 out of range
        MOV R300, R2 ;
        EXIT ;
