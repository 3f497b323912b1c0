// expect: 3:17: expected ',' between values of '.word'
.const 1
        .word 1 2
