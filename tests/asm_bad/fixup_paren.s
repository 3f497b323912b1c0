// expect: 2:6: expected '(' after '`'
BRA `label ;
label: EXIT ;
