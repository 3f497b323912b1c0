// expect: 2:11: shift count 64 out of range (0..63)
MOV R1, 1 << 64 ;
