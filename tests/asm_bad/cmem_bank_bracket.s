// expect: 2:15: expected ']' after the constant bank
MOV R1, c[0x0 0x1][0x0] ;
