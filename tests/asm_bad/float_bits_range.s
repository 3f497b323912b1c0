// expect: 2:14: float bit pattern out of range (32 bits)
FADD R1, R2, 0x100000000 ;
