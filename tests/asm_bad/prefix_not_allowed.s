// expect: 2:9: operand 2: '-' is not allowed on this operand
MOV R1, -R2 ;
