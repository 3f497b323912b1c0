// expect: 2:8: expected a kernel name after '.kernel'
.kernel
