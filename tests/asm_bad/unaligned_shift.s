// expect: 2:14: operand 2: 0x18 is not a multiple of 16
LEPC R[4:5], 0x18 ;
