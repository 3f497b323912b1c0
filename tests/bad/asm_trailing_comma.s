// run: --grid 1 --block 32
// status: 3
// expect: expected an operand after ','
        MOV R1, ;
        EXIT ;
