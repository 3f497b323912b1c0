// expect: 2:5: unknown instruction 'FOO'
    FOO R1, R2 ;
