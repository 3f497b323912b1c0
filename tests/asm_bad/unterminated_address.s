// expect: 2:9: unterminated address '[' (missing ']')
LDS R1, [R2+0x10 ;
