// expect: 2:8: constant bank 0 holds the kernel parameters
.const 0
