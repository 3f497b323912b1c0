// expect: 2:11: expected a register after '|'
FADD R1, |0x5|, R3 ;
