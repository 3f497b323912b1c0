// expect: 2:10: operand 2: expected register, got predicate
BMOV B0, P1 ;
