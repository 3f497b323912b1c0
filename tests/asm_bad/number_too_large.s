// expect: 2:9: number '0x10000000000000000' is too large
MOV R1, 0x10000000000000000 ;
