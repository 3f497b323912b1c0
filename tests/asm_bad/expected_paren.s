// expect: 2:12: expected ')'
MOV R1, (1 2) ;
