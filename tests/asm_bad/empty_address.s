// expect: 2:10: empty address '['
LDS R1, [] ;
