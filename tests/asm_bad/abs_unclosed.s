// expect: 2:10: missing closing '|'
FADD R1, |R2, R3 ;
