// expect: 2:7: operand 1: undefined label 'nowhere'
BRA `(nowhere) ;
