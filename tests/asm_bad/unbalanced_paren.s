// expect: 2:9: unbalanced '(' (missing ')')
MOV R1, (0x10 + 2 ;
