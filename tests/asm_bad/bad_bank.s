// expect: 2:8: constant bank 40 out of range (1..31)
.const 40
