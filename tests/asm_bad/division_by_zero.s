// expect: 2:11: division by zero
MOV R1, 1 / 0 ;
