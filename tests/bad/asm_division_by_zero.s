// run: --grid 1 --block 32
// status: 3
// expect: division by zero
        MOV R1, 1 / (2 - 2) ;
        EXIT ;
