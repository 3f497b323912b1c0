// expect: 2:1: unknown directive '.frobnicate'
.frobnicate 1
