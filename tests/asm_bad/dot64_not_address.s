// expect: 2:9: '.64' is only written on a 64-bit address register
MOV R1, R2.64 ;
