// expect: 2:17: expected ']' in address '['
LDS R1, [R2+0x4 0x8] ;
