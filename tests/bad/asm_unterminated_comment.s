// run: --grid 1 --block 32
// status: 3
// expect: unterminated comment
        MOV R1, R2 ; /* the comment never ends
        EXIT ;
