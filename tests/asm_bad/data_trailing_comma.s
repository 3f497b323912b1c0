// expect: 3:17: expected a value after ','
.const 1
        .word 1,
