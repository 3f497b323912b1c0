// expect: 2:9: unterminated register range 'R[' (missing ']')
MOV R1, R[2:3 ;
