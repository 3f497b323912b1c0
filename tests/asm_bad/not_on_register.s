// expect: 2:10: expected a predicate after '!'
MOV R1, !0x4 ;
