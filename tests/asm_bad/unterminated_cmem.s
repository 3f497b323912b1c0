// expect: 2:9: unterminated 'c[' (missing ']')
MOV R1, c[0x3 ;
