// expect: 2:6: operand 1: a 64-bit operand takes 2 registers, not 4
LEPC R[4:7] ;
