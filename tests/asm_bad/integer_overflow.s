// expect: 2:28: integer overflow in expression
MOV R1, 0x7fffffffffffffff + 1 ;
