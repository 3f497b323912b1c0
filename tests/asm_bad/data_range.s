// expect: 3:7: value out of range for '.byte' (1 byte)
.const 2
.byte 256
