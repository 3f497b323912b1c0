// expect: 2:10: unsupported section '.data'
.section .data,"aw"
