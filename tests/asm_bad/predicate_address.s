// expect: 2:12: a predicate cannot be an address register
LDS R1, [P0] ;
