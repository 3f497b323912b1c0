// run: --grid 1 --block 32
// status: 3
// expect: too large
        MOV R1, 0x1ffffffffffffffff ;
        EXIT ;
