// expect: 2:9: operand 2: c[Ra+offset] without a bank
LDC R1, c[R2+0x10] ;
