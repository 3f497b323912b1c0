// expect: 2:5: register R255 out of range (R0..R254 or RZ)
MOV R255, R1 ;
