// expect: 2:1: '.word' outside a constant section (use .const N)
.word 1
