// expect: 3:9: '.zero -1' out of range (0..65536)
.const 1
        .zero -1
