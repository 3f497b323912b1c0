// expect: 2:16: constant offset out of range (0..0xffff)
MOV R1, c[0x0][0x10000] ;
