// expect: 2:9: floating-point number '1.5' in an integer expression
MOV R1, 1.5 ;
