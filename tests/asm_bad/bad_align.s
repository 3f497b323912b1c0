// expect: 3:1: '.align 3': the alignment must be a power of two
.const 2
.align 3
