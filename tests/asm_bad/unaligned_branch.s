// expect: 2:5: operand 1: unaligned branch target 0x18 (must be a multiple of 16)
BRA 0x18 ;
