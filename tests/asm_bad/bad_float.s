// expect: 2:14: operand 3: bad or out-of-range float '1e99'
FADD R1, R2, 1e99 ;
