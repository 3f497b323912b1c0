// expect: 2:9: unexpected character '#'
MOV R1, #3 ;
