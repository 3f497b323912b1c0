// expect: 2:16: expected an expression before ')'
MOV R1, (0x10 +) ;
