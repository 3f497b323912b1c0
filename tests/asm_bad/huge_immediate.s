// expect: 2:9: value 0xffffffffffffffff out of range for SImm32
MOV R1, 0xffffffffffffffff ;
