// expect: 2:15: unterminated constant address 'c[bank][' (missing ']')
MOV R1, c[0x3][0x10 ;
