// expect: 3:14: '.word' needs at least one value
.const 1
        .word
