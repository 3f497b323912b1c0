// expect: 2:9: operand 2: immediate 0x100000000 out of range for SImm32
MOV R1, 0x100000000 ;
