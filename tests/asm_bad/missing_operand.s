// expect: 2:6: missing operand 1: expected BReg (B0, B1, B2, B3, ...)
BSYNC ;
