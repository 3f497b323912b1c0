// expect: 2:9: the offset uses labels of different constant banks
LDC R1, c[R2+(a+b)] ;
.const 1
a: .word 1
.const 2
b: .word 2
