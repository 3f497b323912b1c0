// expect: 2:11: unexpected character '<' (did you mean '<<'?)
MOV R1, 1 < 2 ;
