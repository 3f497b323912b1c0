// expect: 2:9: bad number '0x1g'
MOV R1, 0x1g ;
