// expect: 2:21: operand 3: too many operands
BAR.SYNC 0x0, 0x40, 0x1 ;
