// expect: 2:5: branch target 0x100000000000000 out of range (offset does not fit SImm50)
BRA 0x100000000000000 ;
